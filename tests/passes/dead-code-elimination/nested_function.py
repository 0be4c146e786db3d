# Inside a used local function the unused binding goes; an unused local
# function goes whole.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def used(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            dead = R.multiply(a, a)
            b = R.add(a, a)
            return b

        @R.function
        def unused(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return a

        y = used(x)
        return y


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def used(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            b = R.add(a, a)
            return b

        y = used(x)
        return y
