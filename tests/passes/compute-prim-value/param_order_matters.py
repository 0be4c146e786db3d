# graft case: the generated function's params follow the first occurrence
# of each var (M before N in M - N), and structural equality pairs the vars
# of `T.ret` with the params by position: an Expected computing N - M from
# (M, N) is a different function.
# PIPELINE: compute-prim-value
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim(value="M - N"):
        N = T.int64()
        M = T.int64()
        out = R.prim_value(M - N)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim(value="M - N"):
        N = T.int64()
        M = T.int64()
        out: R.Prim("int64") = Expected.compute_symbolic_expr(R.prim_value(M), R.prim_value(N))
        return out

    @T.prim_func(private=True)
    def compute_symbolic_expr(M: T.int64, N: T.int64) -> T.int64:
        T.func_attr({"tir.is_host_func": True})
        T.ret(M - N)
