# A dataflow var copying a Var of the same block: reads of the copy read the
# Var, and the Var (read only inside the block) becomes a dataflow var.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            o1 = R.add(x, R.const(1))
            t = o1
            o2 = R.add(t, R.const(1))
            R.output(o1, o2)
        return o2


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            o1 = R.add(x, R.const(1))
            o2 = R.add(o1, R.const(1))
            R.output(o2)
        return o2
