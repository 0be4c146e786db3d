# (p[1], p[0]) swaps the fields of a 2-tuple: not a copy, nothing changes.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[1]
            B = p[0]
            out = (A, B)
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[1]
            B = p[0]
            out = (A, B)
            R.output(out)
        return out
