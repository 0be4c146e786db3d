# c is bound to a constant and read only inside its block, so it becomes a
# dataflow var; its reads are still replaced by the constant (graft inlines
# at every use; TVM v0.23 misses the renamed var).
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((), "int32")):
        with R.dataflow():
            c = R.const(1)
            d = R.add(x, c)
            R.output(c, d)
        return d


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((), "int32")):
        with R.dataflow():
            c = R.const(1)
            d = R.add(x, R.const(1))
            R.output(d)
        return d
