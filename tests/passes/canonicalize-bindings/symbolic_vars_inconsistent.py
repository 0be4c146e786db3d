# A says M is 16, B says M is 32: the match_casts contradict each other and
# the pass stops.
# PIPELINE: canonicalize-bindings
# EXPECT-ERROR: MatchCast statements must be consistent. However, the definition of Relax variable lhs_A implies that TIR variable M is 16, while the later definition of Relax variable lhs_B instead implies that TIR variable M is 32
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor((16, 16), "float32"), B: R.Tensor((32, 32), "float32")):
        N1 = T.int64()
        M = T.int64()
        N2 = T.int64()
        lhs_A = R.match_cast(A, R.Tensor((N1, M), "float32"))
        lhs_B = R.match_cast(B, R.Tensor((N2, M), "float32"))
        out = R.concat((lhs_A, lhs_B), axis=0)
        return out
