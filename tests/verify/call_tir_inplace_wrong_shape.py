# VERIFY: call_tir_inplace output 0 has shape (5,) but PrimFunc 'f' expects
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((5,), "float32"):
        cls = Module
        y = R.call_tir_inplace(cls.f, (x,), inplace_indices=[0], out_sinfo=R.Tensor((5,), "float32"))
        return y
