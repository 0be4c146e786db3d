# An unused match_cast is a runtime check: it stays, and so does the value it
# checks. The unused add after it goes.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y = R.add(x, x)
        z = R.match_cast(y, R.Tensor((n,), "float32"))
        unused = R.add(z, z)
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y = R.add(x, x)
        z = R.match_cast(y, R.Tensor((n,), "float32"))
        return x
