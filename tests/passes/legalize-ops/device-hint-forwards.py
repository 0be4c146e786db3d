# R.hint_on_device is an identity for graft's builds (no RealizeVDevice;
# every tensor lives on the target's device): the binding becomes its input,
# whichever device the hint names.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.hint_on_device(x, R.device(1, 0))
        b = R.hint_on_device(a, R.device(2, 0), "global")
        return b


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = x
        b = a
        return b
