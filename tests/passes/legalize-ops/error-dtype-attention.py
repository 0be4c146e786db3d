# graft.nn.attention takes floating-point tensors: an int32 query is refused.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.nn.attention in binding 'o' of function 'main' has argument 'query' of dtype int32, but graft.nn.attention takes only floating-point dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(q: R.Tensor((1, 2, 1, 4), "int32")) -> R.Tensor((1, 2, 1, 4), "int32"):
        o = R.nn.attention(q, q, q)
        return o
