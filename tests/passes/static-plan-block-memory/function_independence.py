# TVM test_multiple_functions and test_function_independence: each function
# is planned on its own, with its own pool: func1's int32 request never
# shares the float32 storage (dtypes never share), and func2 starts with no
# free storage although func1 left one (reuse inside func2 only).
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def g(a: T.Buffer((T.int64(2), T.int64(3)), "int32"), b: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.evaluate(0)

    @R.function
    def func1(x: R.Tensor((8,), "float32"), y: R.Tensor((2, 3), "int32")) -> R.Tensor((8,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        i = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("int32"), R.prim_value(0))
        _1 = cls.g(y, i)
        b = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(a, b)
        return b

    @R.function
    def func2(x: R.Tensor((10,), "float32")) -> R.Tensor((10,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(x, b)
        c = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(b, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def g(a: T.Buffer((T.int64(2), T.int64(3)), "int32"), b: T.Buffer((T.int64(2), T.int64(3)), "int32")):
        T.evaluate(0)

    @R.function
    def func1(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((2, 3), dtype="int32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("int32"))
        i: R.Tensor((2, 3), dtype="int32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([2, 3]), R.dtype("int32"), R.prim_value(0))
        cls.g(y, i)
        b: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(a, b)
        return b

    @R.function
    def func2(x: R.Tensor((10,), dtype="float32")) -> R.Tensor((10,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([40]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((10,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([10]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        b: R.Tensor((10,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([10]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, b)
        c: R.Tensor((10,), dtype="float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(b, c)
        return c
