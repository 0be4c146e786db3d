# DIFF: functions["main"].body.blocks[0]
# A dataflow block never equals a plain binding block.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            y = R.add(x, x)
            R.output(y)
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y
