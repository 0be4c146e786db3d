import pytest

import graft

ADD = """
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        return y
"""

MUL = ADD.replace("R.add(x, x)", "R.multiply(x, x)")


def test_parse_and_print_round_trip():
    mod = graft.parse(ADD)
    assert mod.name == "Module"
    assert mod.functions == ["main"]
    text = mod.script()
    assert "R.add(x, x)" in text
    graft.assert_structural_equal(graft.parse(text), mod)
    assert str(mod) == text


def test_parse_error_is_located():
    with pytest.raises(graft.GraftError, match=r"bad.py:4:.*error"):
        graft.parse("@I.ir_module\nclass M:\n    @R.function\n    def main(x: R.Tensor((4,), \"float32\"):\n", name="bad.py")


def test_parse_picks_a_module_by_name():
    both = ADD + ADD.replace("class Module", "class Other")
    assert graft.parse(both, module="Other").name == "Other"
    assert sorted(graft.parse_modules(both)) == ["Module", "Other"]
    with pytest.raises(graft.GraftError, match="pick one with module="):
        graft.parse(both)
    with pytest.raises(graft.GraftError, match="holds no module Third"):
        graft.parse(both, module="Third")


def test_parse_file(source_dir):
    mod = graft.parse_file(source_dir / "examples" / "mlp.py")
    assert "main" in mod.functions


def test_assert_structural_equal_names_the_first_mismatch():
    graft.assert_structural_equal(graft.parse(ADD), graft.parse(ADD))
    with pytest.raises(ValueError) as err:
        graft.assert_structural_equal(graft.parse(ADD), graft.parse(MUL))
    message = str(err.value)
    assert 'functions["main"]' in message
    assert "R.add(x, x)" in message and "R.multiply(x, x)" in message
    assert not graft.structural_equal(graft.parse(ADD), graft.parse(MUL))
    assert graft.structural_hash(graft.parse(ADD)) == graft.structural_hash(graft.parse(ADD))


def test_verify_reports_every_violation():
    bad = ADD.replace('y: R.Tensor((4,), dtype="float32")', 'y: R.Tensor((5,), dtype="float32")')
    mod = graft.parse(bad)
    assert not graft.well_formed(mod)
    with pytest.raises(graft.GraftError, match="struct info of 'y' in function 'main' contradicts"):
        graft.verify(mod)
    graft.verify(graft.parse(ADD))
    assert graft.well_formed(graft.parse(ADD))
