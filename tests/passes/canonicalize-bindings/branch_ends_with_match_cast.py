# A branch may end with a match_cast (the parser binds it to `r_then` /
# `r_else`, as TVM's does). Inside each branch the match_cast before the
# multiply pins K to the branch's width; canonicalization drops it there and
# keeps the closing match_cast, which restores the symbolic shape.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(
        x: R.Tensor(("K",), "float32"),
        a: R.Tensor((8,), "float32"),
        b: R.Tensor((4,), "float32"),
    ):
        K = T.int64()
        if R.prim_value(K == 8):
            p: R.Tensor((8,), "float32") = R.add(a, a)
            q: R.Tensor((K,), "float32") = R.match_cast(p, R.Tensor((K,), "float32"))
            q2: R.Tensor((K,), "float32") = R.multiply(q, q)
            r = R.match_cast(q2, R.Tensor((K,), "float32"))
        else:
            s: R.Tensor((4,), "float32") = R.add(b, b)
            t: R.Tensor((K,), "float32") = R.match_cast(s, R.Tensor((K,), "float32"))
            t2: R.Tensor((K,), "float32") = R.multiply(t, t)
            r = R.match_cast(t2, R.Tensor((K,), "float32"))
        out: R.Tensor((K,), "float32") = R.add(r, x)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(
        x: R.Tensor(("K",), "float32"),
        a: R.Tensor((8,), "float32"),
        b: R.Tensor((4,), "float32"),
    ):
        K = T.int64()
        if R.prim_value(K == 8):
            p: R.Tensor((8,), "float32") = R.add(a, a)
            q2: R.Tensor((8,), "float32") = R.multiply(p, p)
            r = R.match_cast(q2, R.Tensor((K,), "float32"))
        else:
            s: R.Tensor((4,), "float32") = R.add(b, b)
            t2: R.Tensor((4,), "float32") = R.multiply(s, s)
            r = R.match_cast(t2, R.Tensor((K,), "float32"))
        out: R.Tensor((K,), "float32") = R.add(r, x)
        return out
