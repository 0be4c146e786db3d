# An entry-functions name the module lacks is an error (as in TVM v0.23).
# PIPELINE: dead-code-elimination{entry-functions=nope}
# EXPECT-ERROR: pass dead-code-elimination needs entry function 'nope' to be in the module
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def tir_add(x: T.Buffer((16, 16), "float32"), y: T.Buffer((16, 16), "float32"), z: T.Buffer((16, 16), "float32")):
        for i, j in T.grid(16, 16):
            z[i, j] = x[i, j] + y[i, j]

    @R.function(private=True)
    def unused(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")):
        y = R.add(x, w)
        return y

    @R.function
    def foo(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")) -> R.Tensor((16, 16), "float32"):
        cls = Before
        y = R.call_tir(cls.tir_add, (x, w), out_sinfo=R.Tensor((16, 16), "float32"))
        return y
