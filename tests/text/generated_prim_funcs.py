# PrimFuncs graft generates, in the form TVM v0.23 prints them: a
# vm-shape-lower shape_func (`H[slot] = expr` stores over heap loads) and
# compute-prim-value's compute_symbolic_expr (`T.ret(expr)`). Both parse to
# PrimExprs, not tokens, and print back byte for byte.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

@I.ir_module
class Generated:
    @T.prim_func(private=True)
    def compute_symbolic_expr(N: T.int64) -> T.bool:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N % T.int64(16) == T.int64(0))

    @T.prim_func(private=True)
    def compute_symbolic_expr1(M: T.int64, N: T.int64) -> T.int64:
        T.func_attr({"tir.is_host_func": True})
        T.ret(T.max(M * N, N // T.int64(2)) - T.int64(1))

    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(5),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(2)] = H[T.int64(0)] + T.int64(1)
        H[T.int64(3)] = H[T.int64(0)] * H[T.int64(1)]
        H[T.int64(4)] = T.min(H[T.int64(1)], T.int64(8)) // T.int64(2)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Prim("bool"):
        R.func_attr({"relax.force_pure": True})
        cls = Generated
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(5),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        cls.shape_func(shape_heap)
        c: R.Prim("bool") = cls.compute_symbolic_expr(R.prim_value(n))
        d: R.Prim("int64") = cls.compute_symbolic_expr1(R.prim_value(m), R.prim_value(n))
        return c
