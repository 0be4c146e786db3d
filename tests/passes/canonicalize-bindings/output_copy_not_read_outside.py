# `o1 = t` where o1 is not read after the block: o1's uses read t and the copy
# goes (no renaming, o1 would only become a dataflow var anyway).
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
        return o2


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            t = R.add(x, R.const(1))
            o2 = R.add(t, R.const(1))
            R.output(o2)
        return o2
