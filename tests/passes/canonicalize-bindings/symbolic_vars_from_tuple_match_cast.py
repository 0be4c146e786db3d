# As symbolic_vars_make_match_cast_trivial, through a tuple: the fields'
# shapes fix the symbolic vars too.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tuple(R.Tensor(("m", "n")))):
        y = x
        o = T.int64()
        p = T.int64()
        z = R.match_cast(x, R.Tuple(R.Tensor((o, p))))
        w = z
        a = w[0]
        b = y[0]
        q = R.add(a, b)
        c = w[0]
        r = R.add(q, c)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tuple(R.Tensor(("m", "n")))):
        a = x[0]
        b = x[0]
        q = R.add(a, b)
        c = x[0]
        r = R.add(q, c)
        return r
