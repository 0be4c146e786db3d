# A packed layout (NCHW4c: C split by 4, innermost) is no permutation of
# NCHW; the convolution kernels take only permutations, so legalize-ops
# refuses the call, naming the binding and the attribute.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.nn.conv2d in binding 'y' of function 'main' has data_layout "NCHW4c", a layout with a packed axis (the kernel takes permutations of the canonical axes only)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 8, 8, 4), "float32"), w: R.Tensor((8, 8, 3, 3), "float32")):
        y = R.nn.conv2d(x, w, data_layout="NCHW4c", out_layout="NCHW")
        return y
