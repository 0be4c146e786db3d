# DIFF: functions["main"].ret_struct_info.shape
# An annotation more precise than the body's struct info is kept and compared.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        return x


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor((4,), "float32"):
        return x
