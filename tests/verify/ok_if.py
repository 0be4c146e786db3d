# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            y = R.add(x, x)
        else:
            y = R.multiply(x, x)
        return y
