# graft.layout_transform runs index maps of +, -, * and // or % by positive
# constants (what layout rewrites write); a division by a parameter is
# refused by legalize-ops with the binding.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.layout_transform in binding 'y' of function 'main' has an index map that divides by something other than a positive constant
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 4), "float32")):
        y = R.layout_transform(x, index_map=lambda i, j: (i, j // (i + 1)))
        return y
