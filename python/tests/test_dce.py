"""A pass test written the way TVM users write theirs (docs/python.md)."""

import graft
from graft import transform
from graft.script import ir as I, relax as R


def test_dead_code_elimination_removes_unused_chain():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")):
            with R.dataflow():
                a = R.add(x, x)
                b = R.multiply(a, a)
                c = R.exp(x)
                d = R.add(c, c)
                R.output(b, d)
            return b

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((4,), "float32")):
            with R.dataflow():
                a = R.add(x, x)
                b = R.multiply(a, a)
                R.output(b)
            return b

    after = transform.DeadCodeElimination()(Before)
    graft.assert_structural_equal(after, Expected)


@R.function
def single(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
    y = R.add(x, x)
    return y


def test_a_function_outside_a_class_is_a_module():
    assert isinstance(single, graft.Module)
    assert single.functions == ["single"]
