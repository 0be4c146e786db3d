# A function that already has relax.force_pure and no purity wrappers is left
# unchanged, as is an impure one.
# PIPELINE: remove-purity-checking
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        return y

    @R.function(pure=False)
    def side(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.print(x, format="x")
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        return y

    @R.function(pure=False)
    def side(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.print(x, format="x")
        return x
