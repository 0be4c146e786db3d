# TVM's TestPrimValueInAssertCondition: the assert condition N % 16 == 0 is
# neither an integer nor a bare var, so a private host PrimFunc computes it
# (`T.ret`, attrs only tir.is_host_func) and the assert reads its result.
# The Expected spells the literals as TVMScript allows (bare 16 and 0 take
# N's int64 type), so this also checks that the generated body is parsed
# as a PrimExpr, not as tokens.
# PIPELINE: compute-prim-value
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        _ = R.assert_op(N % 16 == 0)
        return A


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        condition: R.Prim("bool") = Expected.compute_symbolic_expr(R.prim_value(N))
        _ = R.assert_op(condition)
        return A

    @T.prim_func(private=True)
    def compute_symbolic_expr(N: T.int64) -> T.bool:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N % 16 == 0)
