# One negation, and a block output that would need a dataflow var outside
# its block: nothing changes.
# PIPELINE: fold-double-negation
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.negative(x)
            lv = R.add(a, x)
            b = R.negative(lv)
            c = R.negative(b)
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.negative(x)
            lv = R.add(a, x)
            b = R.negative(lv)
            c = R.negative(b)
            R.output(c)
        return c
