# As several_outputs_from_constants, but only z leaves the block: x and y are
# read nowhere outside it, so they become dataflow vars (no longer outputs).
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main():
        with R.dataflow():
            a = R.const(1)
            b = R.const(1)
            c = R.const(1)
            x = a
            y = b
            z = c
            R.output(x, y, z)
        return z


@I.ir_module
class Expected:
    @R.function
    def main():
        with R.dataflow():
            x = R.const(1)
            y = R.const(1)
            z = R.const(1)
            R.output(z)
        return z
