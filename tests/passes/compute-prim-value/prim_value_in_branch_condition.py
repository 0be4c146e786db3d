# TVM's TestPrimValueInBranchCondition: an `if` on R.prim_value(N % 16 == 0)
# gets the computed condition bound right before the `if`.
# PIPELINE: compute-prim-value
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        if R.prim_value(N % 16 == 0):
            out = R.call_pure_packed("fast_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        else:
            out = R.call_pure_packed("slow_non_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        return out


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        condition: R.Prim("bool") = Expected.compute_symbolic_expr(R.prim_value(N))
        if condition:
            out = R.call_pure_packed("fast_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        else:
            out = R.call_pure_packed("slow_non_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        return out

    @T.prim_func(private=True)
    def compute_symbolic_expr(N: T.int64) -> T.bool:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N % T.int64(16) == T.int64(0))
