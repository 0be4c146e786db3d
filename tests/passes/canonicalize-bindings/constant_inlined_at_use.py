# A var bound to a constant is replaced by the constant at each use; its
# binding stays (here the block's output, read by the return).
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((), "int32"):
        with R.dataflow():
            n = R.const(1)
            R.output(n)
        return n


@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tensor((), "int32"):
        with R.dataflow():
            n = R.const(1)
            R.output(n)
        return R.const(1)
