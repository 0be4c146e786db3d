# Copies around an impure call fold like any other; the call stays.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")):
        y = x
        _ = R.print(y, format="{}")
        z = y
        return z


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")):
        _ = R.print(x, format="{}")
        return x
