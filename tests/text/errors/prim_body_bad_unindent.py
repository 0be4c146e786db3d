# ERROR: unindent does not match any outer indentation level
@T.prim_func
def add(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        B[i] = A[i]
      B[0] = A[0]
