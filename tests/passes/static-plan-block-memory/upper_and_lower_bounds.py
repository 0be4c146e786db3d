# TVM test_upper_and_lower_bounds: n ranges over [2, 4]; the sizes use the
# upper bound: a 32 B, b 32 B, c reuses a's storage, d (40 B) reuses b's,
# enlarged from 32 to 40 B; the output e stays builtin.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, "n"), "float32")) -> R.Tensor(("2 * n + 2",), "float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4}, "tir_var_lower_bound": {"n": 2}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([2, n]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        a1 = R.reshape(a, R.shape([2 * n]))
        b = R.builtin.alloc_tensor(R.shape([2 * n]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(a1, b)
        c = R.builtin.alloc_tensor(R.shape([2 * n]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(b, c)
        d = R.builtin.alloc_tensor(R.shape([2 * n + 2]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(c, d)
        e: R.Tensor((2 * n + 2,), "float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
        _4 = cls.f(d, e)
        return e


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, "n"), dtype="float32")) -> R.Tensor(("2 * n + 2",), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"n": 4}, "tir_var_lower_bound": {"n": 2}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((2, n), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, n]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        a1: R.Tensor((2 * n,), dtype="float32") = R.reshape(a, R.shape([2 * n]))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([40]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((2 * n,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([2 * n]), R.dtype("float32"), R.prim_value(0))
        cls.f(a1, b)
        c: R.Tensor((2 * n,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2 * n]), R.dtype("float32"), R.prim_value(0))
        cls.f(b, c)
        d: R.Tensor((2 * n + 2,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([2 * n + 2]), R.dtype("float32"), R.prim_value(0))
        cls.f(c, d)
        e: R.Tensor((2 * n + 2,), dtype="float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(d, e)
        return e
