# As in TVM, a logical op's output has its operands' dtype, and its kernel
# writes bool only: a logical op on integers is refused at build time (TVM's
# lowering refuses non-bool operands too).
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs dtypes its kernel takes: R.logical_and in binding 'y' of function 'main' has output of dtype int32, but graft.logical_and takes only bool dtypes there
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        y = R.logical_and(x, x)
        return y
