# graft.sum's rule is on its input: a bool tensor is refused by name.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.sum in binding 's' of function 'main' has argument 'x' of dtype bool, but graft.sum takes only integer or floating-point dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "bool")) -> R.Tensor((2,), "bool"):
        s = R.sum(x, axis=[1])
        return s
