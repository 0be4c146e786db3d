# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        @R.function
        def loop(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            z: R.Tensor((2,), "float32") = loop(y)
            return z

        w: R.Tensor((2,), "float32") = loop(x)
        return w
