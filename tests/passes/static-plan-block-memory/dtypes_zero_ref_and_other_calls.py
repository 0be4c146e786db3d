# Dtypes never share a storage (TVM test_different_dtype); bool takes one
# byte per element (test_dtype_bool); an alloc nobody reads still gets its
# own storage (test_zero_reference); a tensor passed to a call that is not a
# PrimFunc, an ExternFunc or call_tir_dyn stays builtin
# (test_call_func_other_than_primfunc).
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func
    def g(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "int32")):
        T.evaluate(0)

    @R.function
    def other(a: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        return a

    @R.function
    def main(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(x, a)
        i = R.builtin.alloc_tensor(R.shape([8]), R.dtype("int32"), R.prim_value(0))
        _2 = cls.g(x, i)
        k = R.builtin.alloc_tensor(R.shape([3]), R.dtype("bool"), R.prim_value(0))
        z = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        o = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(x, o)
        p = cls.other(o)
        return p


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func
    def g(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "int32")):
        T.evaluate(0)

    @R.function
    def other(a: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        return a

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("int32"))
        i: R.Tensor((8,), dtype="int32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([8]), R.dtype("int32"), R.prim_value(0))
        cls.g(x, i)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([3]), R.prim_value(0), R.str("global"), R.dtype("bool"))
        k: R.Tensor((3,), dtype="bool") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([3]), R.dtype("bool"), R.prim_value(0))
        storage_3: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        z: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        o: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, o)
        p: R.Tensor((8,), dtype="float32") = cls.other(o)
        return p
