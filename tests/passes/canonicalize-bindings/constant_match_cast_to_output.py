# A match_cast of a constant to its own struct info is a copy: it folds like
# `out = c`.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((), "int32"):
        with R.dataflow():
            c = R.const(1)
            out = R.match_cast(c, R.Tensor((), "int32"))
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
