# VERIFY: must be a tuple written inline
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        t = (x,)
        y: R.Tensor((4,), "float32") = R.emit_with_sinfo(
            "relax.call_tir", (cls.add, t), (R.Tensor((4,), "float32"),)
        )
        return y
