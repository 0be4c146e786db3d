# A dtype the kernel refuses fails the build, not the run: graft.add takes
# no bool output (Relax's add of two bools is bool), so the pass names the
# op, the binding, the dtype and what the kernel takes.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.add in binding 'y' of function 'main' has output of dtype bool, but graft.add takes only integer or floating-point dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "bool")) -> R.Tensor((2, 3), "bool"):
        y = R.add(x, x)
        return y
