# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(a: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        for i in range(m):
            A[i] = T.float32(0)

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        y = R.call_tir(cls.fill, (), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        return y
