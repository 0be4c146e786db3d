# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y = R.match_cast(x, R.Tensor((n,), "float32"))
        z = R.add(y, y)
        return z
