# The convolution kernels compute in floating point; an integer convolution
# is refused with the dtype rule.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.nn.conv1d in binding 'y' of function 'main' has argument 'data' of dtype int8, but graft.nn.conv1d takes only floating-point dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 8), "int8"), w: R.Tensor((4, 2, 3), "int8")):
        y = R.nn.conv1d(x, w, out_dtype="int32")
        return y
