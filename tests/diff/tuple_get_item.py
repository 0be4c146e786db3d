# DIFF: functions["main"].body.blocks[0].bindings[0].value.index
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(t: R.Tuple(R.Tensor((4,), "float32"), R.Tensor((4,), "float32"))) -> R.Tensor((4,), "float32"):
        y = t[0]
        return y


@I.ir_module
class B:
    @R.function
    def main(t: R.Tuple(R.Tensor((4,), "float32"), R.Tensor((4,), "float32"))) -> R.Tensor((4,), "float32"):
        y = t[1]
        return y
