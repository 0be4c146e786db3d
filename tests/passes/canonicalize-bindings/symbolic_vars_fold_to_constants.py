# v0.23 behaviour: static input shapes fix N1, N2 and M to 16. Every later
# shape, annotation and R.prim_value uses the values (simplified: N1 + N2 is
# 32), so the three match_casts become copies and disappear.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(
        state: R.Tensor((16,), "float32"),
        A: R.Tensor((16, 16), "float32"),
        B: R.Tensor((16, 16), "float32"),
    ):
        N1 = T.int64()
        M = T.int64()
        N2 = T.int64()
        lhs_A = R.match_cast(A, R.Tensor((N1, M), "float32"))
        lhs_B = R.match_cast(B, R.Tensor((N2, M), "float32"))
        rhs = R.match_cast(state, R.Tensor((M,), "float32"))
        lhs: R.Tensor((N1 + N2, M), "float32") = R.concat((lhs_A, lhs_B), axis=0)
        proj: R.Tensor((N1 + N2,), "float32") = R.matmul(lhs, rhs)
        part = R.strided_slice(proj, [R.prim_value(0)], [R.prim_value(N1)], [R.prim_value(N1 + N2)], assume_inbound=False)
        return part


@I.ir_module
class Expected:
    @R.function
    def main(
        state: R.Tensor((16,), "float32"),
        A: R.Tensor((16, 16), "float32"),
        B: R.Tensor((16, 16), "float32"),
    ):
        lhs: R.Tensor((32, 16), "float32") = R.concat((A, B), axis=0)
        proj: R.Tensor((32,), "float32") = R.matmul(lhs, state)
        part = R.strided_slice(proj, [R.prim_value(0)], [R.prim_value(16)], [R.prim_value(32)], assume_inbound=False)
        return part
