# (p[0], p[1], p[2]) rebuilds the whole 3-tuple p: it is a copy of p, so the
# return reads p. The item bindings stay (dead-code-elimination removes
# them).
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[0]
            B = p[1]
            C = p[2]
            out = (A, B, C)
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tuple(R.Tensor, R.Tensor, R.Tensor)):
        with R.dataflow():
            A = p[0]
            B = p[1]
            C = p[2]
            R.output()
        return p
