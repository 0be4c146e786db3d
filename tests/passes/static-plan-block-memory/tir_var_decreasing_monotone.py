# TVM test_tir_var_decreasing_monotone: a dim's upper bound is the largest
# value over the ranges of its vars (n in [0, 20], m in [0, 5]), not the value
# at the upper bounds: T.max(n - m, 1) reaches 20 at n = 20, m = 0, so each
# request is 20 * 5 * 20 * 4 = 8000 bytes.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", "m", "T.max(n - m, 1)"), "float32")) -> R.Tensor(("n", "m", "T.max(n - m, 1)"), "float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"m": 5, "n": 20}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(a, b)
        c = R.builtin.alloc_tensor(R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(b, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", "m", "T.max(n - m, 1)"), dtype="float32")) -> R.Tensor(("n", "m", "T.max(n - m, 1)"), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"m": 5, "n": 20}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([8000]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n, m, T.max(n - m, 1)), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([8000]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((n, m, T.max(n - m, 1)), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0))
        cls.f(a, b)
        c: R.Tensor((n, m, T.max(n - m, 1)), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, m, T.max(n - m, 1)]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(b, c)
        return c
