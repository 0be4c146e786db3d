# An output whose shape is unknown cannot be allocated by the caller: the
# pass refuses, naming the op and the binding.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs outputs of a known shape and dtype: R.exp in binding 'y' of function 'main' has output R.Tensor(dtype="float32", ndim=2)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        y = R.exp(x)
        return y
