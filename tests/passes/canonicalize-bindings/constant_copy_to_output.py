# A dataflow var bound to a constant and copied into an output: the output's
# binding takes the constant.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((), "int32"):
        with R.dataflow():
            c = R.const(1)
            out = c
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tensor((), "int32"):
        with R.dataflow():
            out = R.const(1)
            R.output(out)
        return out
