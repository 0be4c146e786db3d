# A rule that depends on an attribute: scatter_elements takes bool data for
# reduction "update" and "add" only, and the message says when.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.scatter_elements in binding 'r' of function 'main' has argument 'data' of dtype bool, but graft.scatter_elements takes only integer or floating-point dtypes there when reduction is mul or mean or max or min
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 3), "bool"), i: R.Tensor((2, 3), "int64"), u: R.Tensor((2, 3), "bool")) -> R.Tensor((4, 3), "bool"):
        r = R.scatter_elements(x, i, u, axis=0, reduction="mul")
        return r
