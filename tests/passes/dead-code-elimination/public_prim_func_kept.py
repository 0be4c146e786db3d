# A PrimFunc with external linkage (a global_symbol) is an entry even when
# nothing calls it; the unused private Relax function goes.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def unused_tir(x: T.Buffer((16, 16), "float32"), y: T.Buffer((16, 16), "float32"), z: T.Buffer((16, 16), "float32")):
        T.func_attr({"global_symbol": "tir_unused"})
        for i, j in T.grid(16, 16):
            z[i, j] = x[i, j] + y[i, j]

    @R.function(private=True)
    def unused(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")):
        y = R.add(x, w)
        return y

    @R.function
    def main(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")) -> R.Tensor((16, 16), "float32"):
        y = R.add(x, w)
        return y


@I.ir_module
class Expected:
    @T.prim_func
    def unused_tir(x: T.Buffer((16, 16), "float32"), y: T.Buffer((16, 16), "float32"), z: T.Buffer((16, 16), "float32")):
        T.func_attr({"global_symbol": "tir_unused"})
        for i, j in T.grid(16, 16):
            z[i, j] = x[i, j] + y[i, j]

    @R.function
    def main(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")) -> R.Tensor((16, 16), "float32"):
        y = R.add(x, w)
        return y
