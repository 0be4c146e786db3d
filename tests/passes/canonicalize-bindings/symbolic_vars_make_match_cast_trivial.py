# x already has shape (m, n), so the match_cast fixes o = m and p = n. After
# substitution its target equals x's struct info: it turns into a copy and
# goes away, and the adds read x.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"))):
        y = x
        o = T.int64()
        p = T.int64()
        z = R.match_cast(x, R.Tensor((o, p)))
        w = z
        q = R.add(w, y)
        r = R.add(q, w)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", "n"))):
        m = T.int64()
        n = T.int64()
        q: R.Tensor((m, n)) = R.add(x, x)
        r = R.add(q, x)
        return r
