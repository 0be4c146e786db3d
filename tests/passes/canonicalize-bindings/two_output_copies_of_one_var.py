# Two outputs copy the same dataflow var: the first takes its definition, the
# second folds into the first.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(w: R.Tensor):
        with R.dataflow():
            x = R.add(w, R.const(1))
            y = x
            z = x
            R.output(y, z)
        return (y, z)


@I.ir_module
class Expected:
    @R.function
    def main(w: R.Tensor):
        with R.dataflow():
            y = R.add(w, R.const(1))
            R.output(y)
        return (y, y)
