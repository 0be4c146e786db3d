# TVM #20191 (fixed after v0.23, kept by graft, docs/passes.md): the else branch may
# not take a storage first allocated in the then branch (it would not exist
# on that path), and code after the if may not take one first allocated in a
# branch. Each branch and the code after the if start from the free storages
# that exist before the if. v0.23 would let b reuse a's storage.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        cls = Before
        if c:
            a = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
            _1 = cls.f(x, a)
            r = x
        else:
            b = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
            _2 = cls.f(x, b)
            r = x
        d = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(r, d)
        e = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _4 = cls.f(d, e)
        return e


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Expected
        if c:
            storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            a: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
            cls.f(x, a)
            r: R.Tensor((8,), dtype="float32") = x
        else:
            storage_1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            b: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
            cls.f(x, b)
            r: R.Tensor((8,), dtype="float32") = x
        storage_2: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        d: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.f(r, d)
        e: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(d, e)
        return e
