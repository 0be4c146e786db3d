# ERROR: R.call_tir_with_grad missing required argument 'te_grad_name'
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir_with_grad(cls.double, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
