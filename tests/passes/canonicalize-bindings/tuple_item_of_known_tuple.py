# `t[i]` of a tuple literal is a copy of the field: it folds to x or y. The
# tuple binding itself stays.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor, y: R.Tensor):
        t = (x, y)
        a = t[0]
        b = t[1]
        s = R.add(a, b)
        r = R.add(b, s)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor, y: R.Tensor):
        t = (x, y)
        s = R.add(x, y)
        r = R.add(y, s)
        return r
