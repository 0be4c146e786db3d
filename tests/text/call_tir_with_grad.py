# R.call_tir_with_grad: a call_tir that names the TE gradient TVM's Gradient
# pass applies; te_grad_kwargs prints only when it is not empty, as in TVM.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def twice(A: T.Buffer((3, 5), "float32"), B: T.Buffer((3, 5), "float32")):
        for i, j in T.grid(3, 5):
            B[i, j] = A[i, j] * T.float32(2)

    @R.function
    def main(x: R.Tensor((3, 5), "float32")) -> R.Tensor((3, 5), "float32"):
        cls = Module
        a = R.call_tir_with_grad(cls.twice, (x,), R.Tensor((3, 5), "float32"), te_grad_name="twice_grad")
        b = R.call_tir_with_grad(cls.twice, (a,), out_sinfo=R.Tensor((3, 5), "float32"), te_grad_name="twice_k_grad", te_grad_kwargs={"k": 2.0})
        c = R.call_tir_with_grad(cls.twice, (b,), out_sinfo=R.Tensor((3, 5), "float32"), te_grad_name="twice_k_grad", te_grad_kwargs={"k": T.float32(2), "name": "w"})
        return c
