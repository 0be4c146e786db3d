# DIFF: equal
# Symbolic vars are defined at their first occurrence in the params.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor(("n", "k"), "float32"), y: R.Tensor(("k",), "float32")) -> R.Shape(["n", "k"]):
        n = T.int64()
        k = T.int64()
        s = R.shape([n, k])
        return s


@I.ir_module
class B:
    @R.function
    def main(a: R.Tensor(("p", "q"), "float32"), b: R.Tensor(("q",), "float32")) -> R.Shape(["p", "q"]):
        p = T.int64()
        q = T.int64()
        s = R.shape([p, q])
        return s
