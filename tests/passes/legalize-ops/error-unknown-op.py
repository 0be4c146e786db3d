# An op without a kernel (here one the registry does not know) stops the
# pass before anything changes, naming the op and the binding.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs a kernel for every op: R.my.fancy_op in binding 'y' of function 'main' has none
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.exp(x)
        y: R.Tensor((4,), "float32") = R.my.fancy_op(a)
        return y
