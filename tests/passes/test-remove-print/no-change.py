# Nothing to remove: the module is unchanged (and the pass reports no change).
# PIPELINE: test-remove-print{format-prefix=debug}
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="trace: x")
        return x


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="trace: x")
        return x
