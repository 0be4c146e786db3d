# Each branch fixes N differently (16, then 32). Inside a branch the later
# shapes use that value; the branch's match_cast becomes trivial and goes,
# and the branch ends with a match_cast back to the if's (M, N) so the value
# after the if keeps its symbolic shape.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(
        state: R.Tensor(("N",), "float32"),
        A: R.Tensor(("M", 16), "float32"),
        B: R.Tensor(("M", 32), "float32"),
        scale: R.Prim("float32"),
    ):
        N = T.int64()
        M = T.int64()
        cond: R.Prim("bool") = R.prim_value(N == 16)
        if cond:
            w1: R.Tensor((M, 16), "float32") = R.multiply(A, scale)
            w2: R.Tensor((M, N), "float32") = R.match_cast(w1, R.Tensor((M, N), "float32"))
            w3: R.Tensor((M, N), "float32") = R.multiply(w2, scale)
            w = w3
        else:
            v1: R.Tensor((M, 32), "float32") = R.multiply(B, scale)
            v2: R.Tensor((M, N), "float32") = R.match_cast(v1, R.Tensor((M, N), "float32"))
            v3: R.Tensor((M, N), "float32") = R.multiply(v2, scale)
            w = v3
        s: R.Tensor((M, N), "float32") = R.multiply(w, scale)
        out: R.Tensor((M,), "float32") = R.matmul(s, state)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(
        state: R.Tensor(("N",), "float32"),
        A: R.Tensor(("M", 16), "float32"),
        B: R.Tensor(("M", 32), "float32"),
        scale: R.Prim("float32"),
    ):
        N = T.int64()
        M = T.int64()
        cond: R.Prim("bool") = R.prim_value(N == 16)
        if cond:
            w1: R.Tensor((M, 16), "float32") = R.multiply(A, scale)
            w3: R.Tensor((M, 16), "float32") = R.multiply(w1, scale)
            then_branch_with_dyn = R.match_cast(w3, R.Tensor((M, N), "float32"))
            w = then_branch_with_dyn
        else:
            v1: R.Tensor((M, 32), "float32") = R.multiply(B, scale)
            v3: R.Tensor((M, 32), "float32") = R.multiply(v1, scale)
            else_branch_with_dyn = R.match_cast(v3, R.Tensor((M, N), "float32"))
            w = else_branch_with_dyn
        s: R.Tensor((M, N), "float32") = R.multiply(w, scale)
        out: R.Tensor((M,), "float32") = R.matmul(s, state)
        return out
