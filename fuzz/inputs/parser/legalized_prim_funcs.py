# Seed for the parser fuzz target: PrimFuncs in the shape TVM's legalization
# prints (grids, blocks, reads/writes, reductions, symbolic shapes).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add5(A: T.Buffer((T.int64(1), T.int64(64), T.int64(112), T.int64(112)), "float32"), B: T.Buffer((T.int64(64), T.int64(1), T.int64(1)), "float32"), C: T.Buffer((T.int64(1), T.int64(64), T.int64(112), T.int64(112)), "float32")):
        T.func_attr({"global_symbol": "add5", "tir.noalias": True})
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(64), T.int64(112), T.int64(112)):
            with T.block("T_add"):
                ax0, ax1, ax2, ax3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(A[ax0, ax1, ax2, ax3], B[ax1, T.int64(0), T.int64(0)])
                T.writes(C[ax0, ax1, ax2, ax3])
                C[ax0, ax1, ax2, ax3] = A[ax0, ax1, ax2, ax3] + B[ax1, T.int64(0), T.int64(0)]

    @T.prim_func(private=True)
    def sum_rows(var_A: T.handle, var_B: T.handle):
        T.func_attr({"tir.noalias": True})
        n, m = T.int64(), T.int64()
        A = T.match_buffer(var_A, (n, m))
        B = T.match_buffer(var_B, (n,))
        for i, k in T.grid(n, m):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    @T.prim_func(private=True)
    def relu_select(A: T.Buffer((T.int64(16),), "float16"), B: T.Buffer((T.int64(16),), "float16")):
        T.func_attr({"tir.noalias": True})
        for i in T.serial(T.int64(16)):
            with T.block("B"):
                vi = T.axis.spatial(T.int64(16), i)
                B[vi] = T.Select(A[vi] > T.float16(0), A[vi], T.if_then_else(vi < T.int64(8), T.float16(0), A[vi] * T.float16(0.01)))

    @R.function
    def main(x: R.Tensor((1, 64, 112, 112), dtype="float32"), b: R.Tensor((64, 1, 1), dtype="float32")) -> R.Tensor((1, 64, 112, 112), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.add5, (x, b), out_sinfo=R.Tensor((1, 64, 112, 112), dtype="float32"))
        return gv
