# graft.einsum takes letters only: subscripts with an ellipsis are refused by
# name instead of computing something else.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.einsum in binding 'e' of function 'main' has subscripts "...ij,...jk->...ik" with an ellipsis, which graft.einsum does not take
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 3), "float32")):
        e = R.einsum((x, x), "...ij,...jk->...ik")
        return e
