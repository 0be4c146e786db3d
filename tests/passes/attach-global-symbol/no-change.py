# Every function is already public: nothing changes.
# PIPELINE: attach-global-symbol
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def k(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class Expected:
    @T.prim_func
    def k(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
