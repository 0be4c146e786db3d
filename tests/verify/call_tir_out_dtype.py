# VERIFY: call_tir output 0 has dtype float16 but PrimFunc 'add' expects float32
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float16"):
        cls = Module
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), "float16"))
        return y
