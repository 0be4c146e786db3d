# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((2, 3), "float32")) -> R.Object:
        B: R.Object = R.add(A, A)
        return B
