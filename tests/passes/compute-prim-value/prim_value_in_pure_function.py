# TVM's TestPrimValueInPureFunction: R.prim_value(N * M) in a pure function
# becomes a call of a host PrimFunc over (N, M), in first-occurrence order;
# the function stays pure (the generated PrimFunc only returns a value).
# PIPELINE: compute-prim-value
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim(value="N * M"):
        N = T.int64()
        M = T.int64()
        out = R.prim_value(N * M)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim(value="N * M"):
        N = T.int64()
        M = T.int64()
        out: R.Prim("int64") = Expected.compute_symbolic_expr(R.prim_value(N), R.prim_value(M))
        return out

    @T.prim_func(private=True)
    def compute_symbolic_expr(N: T.int64, M: T.int64) -> T.int64:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N * M)
