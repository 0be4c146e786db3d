# With format-prefix, only matching prints go.
# PIPELINE: test-remove-print{format-prefix=debug}
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="debug: x")
        y = R.add(x, x)
        R.print(y, format="trace: y")
        return y


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        R.print(y, format="trace: y")
        return y
