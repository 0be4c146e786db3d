# VERIFY: call_tir argument 0 has ndim 2 but PrimFunc 'add' expects ndim 1
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor((4, 1), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
