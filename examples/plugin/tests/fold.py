# b reads x through two negations: its uses read x; a stays for DCE.
# PIPELINE: fold-double-negation
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.negative(x)
            b = R.negative(a)
            c = R.add(b, x)
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.negative(x)
            c = R.add(x, x)
            R.output(c)
        return c
