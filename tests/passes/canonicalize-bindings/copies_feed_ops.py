# Copies read by ops: the ops read the roots instead.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        b = y
        a = x
        s = R.add(b, a)
        t = R.add(a, s)
        return t


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        s = R.add(y, x)
        t = R.add(x, s)
        return t
