# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        y = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((n,), "float32"))
        return y
