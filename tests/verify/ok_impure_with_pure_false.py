# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.print(x, format="{}")
        return x
