# VERIFY: ok
# TVM defines every parameter's symbolic vars before it checks an expression:
# "N - 2" in A's shape is fine although N first appears alone in B's.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(
        A: R.Tensor((1024, "M", "N - 2"), "float32"),
        B: R.Tensor((128, "N", "M + 2"), "float32"),
        C: R.Shape(["M", "N"]),
    ) -> R.Tensor((1024, "M", "N - 2"), "float32"):
        return A
