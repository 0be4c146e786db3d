# VERIFY: pure function 'main' contains an impure call to R.print
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.print(x, format="{}")
        return x
