# With dead-code-elimination after it, the first negation goes too.
# PIPELINE: fold-double-negation,dead-code-elimination
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.negative(x)
            b = R.negative(a)
            c = R.multiply(b, b)
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            c = R.multiply(x, x)
            R.output(c)
        return c
