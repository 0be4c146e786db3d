# A match_cast to the struct info its value already has is a copy: it goes
# away like `y = x`, and so does the plain copy.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")):
        m = T.int64()
        n = T.int64()
        y = x
        z = R.match_cast(x, R.Tensor((m, n), "float32"))
        w = z
        q = R.add(w, y)
        r = R.add(q, w)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")):
        m = T.int64()
        n = T.int64()
        q = R.add(x, x)
        r = R.add(q, x)
        return r
