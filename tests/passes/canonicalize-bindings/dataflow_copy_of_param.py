# Copies of a parameter inside a dataflow block fold to the parameter; the
# block is left empty and disappears.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            a = x
            b = a
            c = b
            out = c
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        return x
