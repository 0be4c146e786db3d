# B copies A (both outputs read only in the block): B folds into A, and A,
# read only inside, becomes a dataflow var; the order of the remaining
# bindings is kept.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tuple(R.Tensor)):
        with R.dataflow():
            A = p[0]
            B = A
            C = R.add(A, B)
            R.output(A, B, C)
        return C


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tuple(R.Tensor)):
        with R.dataflow():
            A = p[0]
            C = R.add(A, A)
            R.output(C)
        return C
