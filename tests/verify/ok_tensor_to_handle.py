# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(a: T.handle, B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = T.float32(0)

    @R.function
    def main(x: R.Tensor((7, 7), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.fill, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
