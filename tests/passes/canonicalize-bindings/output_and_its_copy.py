# y and its copy z are both outputs but only z is read after the block: y
# becomes a dataflow var, then z takes its definition.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = y
            R.output(y, z)
        return z


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            z = R.add(x, R.const(1))
            R.output(z)
        return z
