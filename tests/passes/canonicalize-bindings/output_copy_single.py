# The block's only output is a copy of a dataflow var: the copy goes and the
# dataflow var's binding defines the output.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = y
            R.output(z)
        return z


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            z = R.add(x, R.const(1))
            R.output(z)
        return z
