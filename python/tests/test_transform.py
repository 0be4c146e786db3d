import pytest

import graft
from graft import transform

TEXT = """
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = a
            unused = R.exp(x)
            R.output(b)
        return b
"""


def test_sequential_runs_passes_in_order_and_leaves_the_input_alone():
    mod = graft.parse(TEXT)
    seq = transform.Sequential([transform.CanonicalizeBindings(), transform.DeadCodeElimination()])
    assert seq.pipeline() == "canonicalize-bindings,dead-code-elimination"
    after = seq(mod)
    text = after.script()
    assert "R.exp" not in text
    assert "R.exp" in mod.script()  # the input is unchanged


def test_pass_by_name_with_options():
    p = transform.Pass("test-remove-print", format_prefix="debug")
    assert p.pipeline() == "test-remove-print{format-prefix=debug}"


def test_unknown_pass_is_an_error():
    with pytest.raises(graft.GraftError, match="unknown pass 'no-such-pass'"):
        transform.Pass("no-such-pass")(graft.parse(TEXT))


def test_named_pipeline_and_pass_context():
    mod = graft.parse(TEXT)
    with transform.PassContext(config={"relax.backend.use_cuda_graph": False}):
        lowered = transform.pipeline("finalize")(mod)
    assert "R.vm." in lowered.script() or "vm.builtin" in lowered.script()


def test_every_registered_pass_has_a_constructor():
    assert callable(transform.DeadCodeElimination)
    assert callable(transform.LegalizeOps)
    assert transform.DeadCodeElimination().pipeline() == "dead-code-elimination"
