# Fuzz regression: two '=' tokens of a PrimFunc body printed together lexed
# as one '==' on re-parse, so printing was not a fixpoint.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def store(A: T.Buffer((4,), "float32")):
        A[0]= =A[1]
        A[2] = A[3] * *A[1]
