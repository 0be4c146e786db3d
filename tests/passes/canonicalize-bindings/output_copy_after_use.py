# As output_copy_renames_definition, with the copy after the read of t: the
# read still goes to o1, whose definition comes first.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            t = R.add(x, R.const(1))
            o2 = R.add(t, R.const(1))
            o1 = t
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
