# DIFF: equal
# match_cast defines the symbolic vars of its struct info.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Shape(ndim=1):
        n = T.int64()
        y = R.match_cast(x, R.Tensor((n,), "float32"))
        s = R.shape([n])
        return s


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Shape(ndim=1):
        m = T.int64()
        z = R.match_cast(x, R.Tensor((m,), "float32"))
        t = R.shape([m])
        return t
