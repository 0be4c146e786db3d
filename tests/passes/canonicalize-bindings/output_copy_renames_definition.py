# `o1 = t` copies a dataflow var into an output read after the block: the
# definition of t now defines o1, and the later reads of t read o1.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            t = R.add(x, R.const(1))
            o1 = t
            o2 = R.add(t, R.const(1))
            R.output(o1, o2)
        return (o1, o2)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            o1 = R.add(x, R.const(1))
            o2 = R.add(o1, R.const(1))
            R.output(o1, o2)
        return (o1, o2)
