# Pools read their data through a permutation of NCHW as well: an output
# layout with a packed axis is refused.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.nn.max_pool2d in binding 'y' of function 'main' has out_layout "NCHW8c", a layout with a packed axis (the kernel takes permutations of the canonical axes only)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 16, 8, 8), "float32")):
        y = R.nn.max_pool2d(x, pool_size=2, out_layout="NCHW8c")
        return y
