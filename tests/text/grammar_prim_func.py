# @T.prim_func: T.Buffer params, handles with match_buffer, scalar params,
# func_attr, private, impure bodies (stores into params), body-only declarations,
# a shape given as one dim rather than a list.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

@I.ir_module
class PrimFuncs:
    @T.prim_func(private=True)
    def one_dim_shapes(A: T.Buffer(T.int64(4), "int64"), var_B: T.handle):
        n = T.int64()
        B = T.match_buffer(var_B, n * 2, "int64")
        for i in range(T.int64(4)):
            with T.block("fill"):
                vi = T.axis.spatial(T.int64(4), i)
                A[vi] = T.int64(0)

    @T.prim_func
    def public_add(A: T.Buffer((T.int64(4), T.int64(4)), "float32"), B: T.Buffer((T.int64(4), T.int64(4)), "float32"), C: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True, "op_pattern": 0})
        for i, j in T.grid(T.int64(4), T.int64(4)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], B[vi, vj])
                T.writes(C[vi, vj])
                C[vi, vj] = A[vi, vj] + B[vi, vj]

    @T.prim_func(private=True)
    def dynamic(var_A: T.handle, var_B: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(var_A, (n, m))
        B = T.match_buffer(var_B, (n, m), "float32")
        for i, j in T.grid(n, m):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = T.max(A[vi, vj], T.float32(0))

    @T.prim_func(private=True)
    def scalar_param(A: T.Buffer((8,), "int32"), k: T.int32, B: T.Buffer((8,), "int32")):
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi] * k

    @T.prim_func(private=True)
    def inplace(A: T.Buffer((T.int64(8),), "float32")):
        for i in range(8):
            with T.block("A"):
                vi = T.axis.spatial(8, i)
                A[vi] = A[vi] * T.float32(2)

    @T.prim_func(private=True)
    def body_declaration(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        k = T.int64()
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi] + T.Cast("float32", k)

    @T.prim_func(private=True)
    def with_alloc(A: T.Buffer((16,), "float16"), B: T.Buffer((16,), "float16")):
        # a comment that the printer drops
        T.func_attr({"tir.noalias": True})
        tmp = T.alloc_buffer((16,), "float16")
        for i in T.serial(16):
            with T.block("tmp"):
                vi = T.axis.spatial(16, i)
                tmp[vi] = T.if_then_else(A[vi] > T.float16(0), A[vi], T.float16(0))
        for i in T.serial(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = T.exp(tmp[vi])

    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(2),), "int64")) -> T.int64:
        T.ret(H[0] * H[1])

    @T.prim_func(check_well_formed=False)
    def not_checked(A: T.Buffer((4,), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 4), "float32"), y: R.Tensor((8,), "int32")) -> R.Tensor((4, 4), "float32"):
        cls = PrimFuncs
        a = R.call_tir(cls.public_add, (x, x), out_sinfo=R.Tensor((4, 4), "float32"))
        b = R.call_tir(cls.dynamic, (a,), out_sinfo=R.Tensor((4, 4), "float32"))
        c = R.call_tir(cls.scalar_param, (y, R.prim_value(T.int32(3))), out_sinfo=R.Tensor((8,), "int32"))
        return b
