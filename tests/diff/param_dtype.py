# DIFF: functions["main"].params[0].struct_info.dtype
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float16")) -> R.Tensor((4,), "float32"):
        return x
