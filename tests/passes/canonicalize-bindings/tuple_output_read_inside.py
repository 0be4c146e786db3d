# A tuple output read only inside its block becomes a dataflow var, and z[0]
# of the known tuple folds to y.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = (y,)
            f = z[0]
            gv = R.add(f, R.const(1))
            R.output(z, gv)
        return gv


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        with R.dataflow():
            y = R.add(x, R.const(1))
            z = (y,)
            gv = R.add(y, R.const(1))
            R.output(gv)
        return gv
