# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((2,), "float32")):
        for i in range(2):
            B[i] = A[i]
            A[i] = T.float32(0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((4,), "float32"), R.Tensor((2,), "float32")):
        cls = Module
        y = R.call_tir_inplace(
            cls.f,
            (x,),
            inplace_indices=[0, -1],
            out_sinfo=[R.Tensor((4,), "float32"), R.Tensor((2,), "float32")],
        )
        return y
