# ERROR: tir_undefined_buffer.py:13:13: error: Undefined variable: C
# A PrimFunc body that stores into a buffer it never declares: TVM's parser
# rejects it with this message, and so does graft (the body is read as a TIR
# statement tree, so its names are resolved).
from tvm.script import ir as I, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            C[i] = A[i]
