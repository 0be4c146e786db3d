# Unused private function with symbolic shapes goes; the called PrimFunc
# stays.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def tir_matmul(x_handle: T.handle, y_handle: T.handle, z_handle: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        x = T.match_buffer(x_handle, (m, n), "float32")
        y = T.match_buffer(y_handle, (n, k), "float32")
        z = T.match_buffer(z_handle, (m, k), "float32")
        for i, j, kk in T.grid(m, k, n):
            z[i, j] = z[i, j] + x[i, kk] * y[kk, j]

    @R.function(private=True)
    def unused(x: R.Tensor(("m", "n"), "float32"), w: R.Tensor(("n", "k"), "float32")):
        y = R.add(x, w)
        return y

    @R.function
    def main(x: R.Tensor(("m", "n"), "float32"), w: R.Tensor(("n", "k"), "float32")):
        m = T.int64()
        k = T.int64()
        cls = Before
        y = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), "float32"))
        return y


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def tir_matmul(x_handle: T.handle, y_handle: T.handle, z_handle: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        x = T.match_buffer(x_handle, (m, n), "float32")
        y = T.match_buffer(y_handle, (n, k), "float32")
        z = T.match_buffer(z_handle, (m, k), "float32")
        for i, j, kk in T.grid(m, k, n):
            z[i, j] = z[i, j] + x[i, kk] * y[kk, j]

    @R.function
    def main(x: R.Tensor(("m", "n"), "float32"), w: R.Tensor(("n", "k"), "float32")):
        m = T.int64()
        k = T.int64()
        cls = Expected
        y = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), "float32"))
        return y
