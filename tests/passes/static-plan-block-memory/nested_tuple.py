# TVM test_nested_tuple: tokens flow through nested tuples and their fields.
# a, b and c are live while the nested tuple's fields are read, so d gets a
# fourth storage; after d's writer a's storage is free again (e takes it), and
# after e's writer d's storage is first in the pool (g takes it).
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(x, b)
        c = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(x, c)
        t = (a, b)
        nt = (t, c)
        nt0 = nt[0]
        a_ = nt0[0]
        b_ = nt0[1]
        c_ = nt[1]
        d = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(a_, d)
        e = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _4 = cls.f(b_, e)
        g = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        _5 = cls.f(c_, g)
        return x


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, b)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        c: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, c)
        t: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = (a, b)
        nt: R.Tuple(R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")), R.Tensor((2, 3), dtype="float32")) = (t, c)
        nt0: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = nt[0]
        a_: R.Tensor((2, 3), dtype="float32") = nt0[0]
        b_: R.Tensor((2, 3), dtype="float32") = nt0[1]
        c_: R.Tensor((2, 3), dtype="float32") = nt[1]
        storage_3: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        d: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(a_, d)
        e: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(b_, e)
        g: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        cls.f(c_, g)
        return x
