# DIFF: equal
# A looser return annotation is replaced by the body's struct info (TVM `src/relax/ir/expr.cc`).
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor(ndim=1, dtype="float32"):
        return x
