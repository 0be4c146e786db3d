# DIFF: functions["main"].body.blocks[0].bindings[0].value.attrs["axis"][0]
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4,), "float32"):
        y = R.sum(x, axis=[0])
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4,), "float32"):
        y = R.sum(x, axis=[1])
        return y
