# TVM infers meshgrid's shapes in input order also for indexing="xy", whose
# grid swaps the first two lengths: graft.meshgrid could not write the
# inferred shape, so legalize-ops refuses the call by name.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs attributes its kernel takes: R.meshgrid in binding 'g' of function 'main' has indexing "xy" over first inputs of lengths 2 and 3, whose grid (lengths swapped) is not the shape inferred for it (TVM's inference keeps the input order)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor((2,), "float32"), b: R.Tensor((3,), "float32")):
        g = R.meshgrid((a, b), indexing="xy")
        return g
