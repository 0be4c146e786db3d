# A dataflow block's output read after the block keeps its chain; an output
# nothing reads goes with the bindings feeding only it.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


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
