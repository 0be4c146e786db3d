# TVM's test_basic: a private Relax function gets its name as global_symbol
# (and so becomes public); the PrimFunc already has one and stays.
# PIPELINE: attach-global-symbol
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def tir_matmul(x: T.handle, y: T.handle, z: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(x, (m, n))
        B = T.match_buffer(y, (n, k))
        C = T.match_buffer(z, (m, k))
        for i, j, kk in T.grid(m, k, n):
            C[i, j] = C[i, j] + A[i, kk] * B[kk, j]

    @R.function(private=True)
    def main(x: R.Tensor(("m", "n"), "float32"), w: R.Tensor(("n", "k"), "float32")) -> R.Tensor(("m", "k"), "float32"):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        cls = Before
        gv0 = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), dtype="float32"))
        return gv0


@I.ir_module
class Expected:
    @T.prim_func
    def tir_matmul(x: T.handle, y: T.handle, z: T.handle):
        T.func_attr({"global_symbol": "tir_matmul"})
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(x, (m, n))
        B = T.match_buffer(y, (n, k))
        C = T.match_buffer(z, (m, k))
        for i, j, kk in T.grid(m, k, n):
            C[i, j] = C[i, j] + A[i, kk] * B[kk, j]

    @R.function
    def main(x: R.Tensor(("m", "n"), "float32"), w: R.Tensor(("n", "k"), "float32")) -> R.Tensor(("m", "k"), "float32"):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        cls = Expected
        gv0 = R.call_tir(cls.tir_matmul, (x, w), out_sinfo=R.Tensor((m, k), dtype="float32"))
        return gv0
