# A match_cast that introduces symbolic vars the value's struct info cannot
# give (x has only ndim=2) stays; the copies around it fold.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor):
        a = x
        m = T.int64()
        n = T.int64()
        z = R.match_cast(a, R.Tensor((m, n)))
        w = z
        return w


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor):
        m = T.int64()
        n = T.int64()
        z = R.match_cast(x, R.Tensor((m, n)))
        return z
