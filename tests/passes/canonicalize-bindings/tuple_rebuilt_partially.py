# (p[0], p[1]) of a 3-tuple is a different tuple: nothing changes.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[0]
            B = p[1]
            out = (A, B)
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[0]
            B = p[1]
            out = (A, B)
            R.output(out)
        return out
