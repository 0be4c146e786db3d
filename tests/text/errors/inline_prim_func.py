# ERROR: inline @T.prim_func is not supported inside a Relax function
@R.function
def main(x: R.Tensor((4,), "float32")):
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(0)
    return x
