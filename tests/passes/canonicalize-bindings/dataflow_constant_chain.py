# A constant copied through dataflow vars into an output var: the chain
# folds, and the constant's definition now defines the output (the use in
# `return` reads the output var, not a constant-bound var, so it stays).
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            c = R.const(1)
            d1 = c
            d2 = d1
            d3 = d2
            out = d3
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            out = R.const(1)
            R.output(out)
        return out
