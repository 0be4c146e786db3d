# VERIFY: call_tir argument 0 has shape (3, 4) but PrimFunc 'square' expects (n, n)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @T.prim_func(private=True)
    def square(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, n), "float32")
        B = T.match_buffer(b, (n, n), "float32")
        for i, j in T.grid(n, n):
            B[i, j] = A[j, i]

    @R.function
    def main(x: R.Tensor((3, 4), "float32")) -> R.Tensor((3, 3), "float32"):
        cls = Module
        y = R.call_tir(cls.square, (x,), out_sinfo=R.Tensor((3, 3), "float32"))
        return y
