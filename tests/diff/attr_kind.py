# DIFF: functions["main"].attrs["flag"]
# Attribute values compare with their kind: int 1 is not True.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"flag": 1})
        return x


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"flag": True})
        return x
