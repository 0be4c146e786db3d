# fuse-elementwise leaves a call of a dtype its kernel refuses unfused, so
# that build-cpu refuses it here, naming it, rather than a fused kernel at
# run time.
# PIPELINE: fuse-elementwise,legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.logical_not in binding 'b' of function 'main' has output of dtype int32, but graft.logical_not takes only bool dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        a = R.add(x, y)
        b = R.logical_not(a)
        c = R.multiply(b, y)
        return c
