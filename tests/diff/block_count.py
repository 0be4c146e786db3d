# DIFF: functions["main"].body.blocks[<missing item at 1>]
# DIFF-RHS: functions["main"].body.blocks[1]
# The common prefix of the blocks is compared first, then the count.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        with R.dataflow():
            z = R.multiply(y, y)
            R.output(z)
        return y
