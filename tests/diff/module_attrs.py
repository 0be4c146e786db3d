# DIFF: attrs["note"]
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    I.module_attrs({"note": 1})

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class B:
    I.module_attrs({"note": 2})

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
