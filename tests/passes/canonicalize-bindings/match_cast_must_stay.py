# x: ndim=2 only. The match_cast defines o and p, which nothing earlier
# fixes, so it is a real check and stays; uses of its copy read it.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32")):
        y = x
        o = T.int64()
        p = T.int64()
        z = R.match_cast(x, R.Tensor((o, p), "float32"))
        w = z
        q = R.add(w, y)
        r = R.add(q, w)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32")):
        o = T.int64()
        p = T.int64()
        z = R.match_cast(x, R.Tensor((o, p), "float32"))
        q = R.add(z, x)
        r = R.add(q, z)
        return r
