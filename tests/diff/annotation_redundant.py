# DIFF: equal
# An annotation that equals the inferred struct info changes nothing.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y: R.Tensor((4,), "float32") = R.add(x, x)
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y
