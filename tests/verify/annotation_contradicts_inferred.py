# VERIFY: struct info of 'y' in function 'main' contradicts the inferred struct info
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((3,), "float32"):
        y: R.Tensor((3,), "float32") = R.add(x, x)
        return y
