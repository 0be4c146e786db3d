# Folding `B = A` changes C's value to R.add(A, A), which is re-inferred: C
# takes the sharper struct info (n, 16) and its annotation follows.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(private=True)
    def main(A: R.Tensor(("n", 16), "int32")) -> R.Tensor(("n", 16), "int32"):
        B = A
        C: R.Tensor(dtype="int32", ndim=2) = R.add(B, B)
        return C


@I.ir_module
class Expected:
    @R.function(private=True)
    def main(A: R.Tensor(("n", 16), "int32")) -> R.Tensor(("n", 16), "int32"):
        n = T.int64()
        C: R.Tensor((n, 16), "int32") = R.add(A, A)
        return C
