# A chain of var-to-var copies folds to the root var: every copy goes away
# and the result reads the parameter directly.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        a = x
        b = a
        c = b
        d = c
        e = d
        return e


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        return x
