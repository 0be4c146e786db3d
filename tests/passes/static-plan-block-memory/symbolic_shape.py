# TVM test_symbolic_shape, plus symbolic-size reuse: with no bounds the sizes
# stay symbolic, 4 * (m * n); b cannot take a's storage (a is live), c takes
# it once a is dead (provably equal size), and d, 4 * (m * (n + 1)) bytes,
# equals no free storage and gets a new one.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        m = T.int64()
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(a, b)
        c = R.builtin.alloc_tensor(R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(b, c)
        d = R.builtin.alloc_tensor(R.shape([m, n + 1]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(c, d)
        return x


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32")) -> R.Tensor(("m", "n"), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([4 * (m * n)]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((m, n), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([4 * (m * n)]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((m, n), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        cls.f(a, b)
        c: R.Tensor((m, n), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m, n]), R.dtype("float32"), R.prim_value(0))
        cls.f(b, c)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([4 * (m * (n + 1))]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        d: R.Tensor((m, n + 1), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([m, n + 1]), R.dtype("float32"), R.prim_value(0))
        cls.f(c, d)
        return x
