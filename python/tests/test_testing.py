import pytest

import graft
from graft import testing

PASSING = """# PIPELINE: dead-code-elimination
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        return x
"""


def test_a_passing_pass_test():
    testing.run_pass_test_text(PASSING)


def test_a_failing_pass_test_reports_the_mismatch():
    failing = PASSING.replace("        return x\n\"\"\"", "        return x\n")
    failing = PASSING.replace("# PIPELINE: dead-code-elimination", "# PIPELINE: canonicalize-bindings")
    with pytest.raises(testing.PassTestFailure, match="t.py"):
        testing.run_pass_test_text(failing, "t.py")


def test_the_repositorys_pass_tests_pass(source_dir):
    passed, failures = testing.run_pass_tests(source_dir / "tests" / "passes" / "dead-code-elimination")
    assert not failures, failures
    assert passed > 3


def test_plugin_passes_become_constructors(source_dir):
    import os
    plugin = os.environ.get("GRAFT_EXAMPLE_PLUGIN")
    if not plugin:
        pytest.skip("GRAFT_EXAMPLE_PLUGIN is not set (ctest sets it)")
    assert graft.load_pass_plugin(plugin) == ["fold-double-negation"]
    mod = graft.parse_file(source_dir / "examples" / "plugin" / "tests" / "fold.py", module="Before")
    expected = graft.parse_file(source_dir / "examples" / "plugin" / "tests" / "fold.py", module="Expected")
    graft.assert_structural_equal(graft.transform.FoldDoubleNegation()(mod), expected)


def test_a_missing_plugin_is_an_error():
    with pytest.raises(graft.GraftError) as err:
        graft.load_pass_plugin("/nonexistent/p.so")
    assert str(err.value) == "pass plugin '/nonexistent/p.so': no such file"
