# y is listed as an output but only read inside the block: it becomes a
# dataflow var.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = R.add(y, R.const(1))
            R.output(y, z)
        return z


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = R.add(y, R.const(1))
            R.output(z)
        return z
