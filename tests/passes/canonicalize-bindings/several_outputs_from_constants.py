# Three outputs, each a copy of a constant-bound dataflow var: each constant
# binding now defines its output.
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
        return (x, y, z)


@I.ir_module
class Expected:
    @R.function
    def main():
        with R.dataflow():
            x = R.const(1)
            y = R.const(1)
            z = R.const(1)
            R.output(x, y, z)
        return (x, y, z)
