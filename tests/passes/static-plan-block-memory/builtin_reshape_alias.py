# An ExternFunc vm.builtin.reshape aliases its input (TVM PR #20134, not in
# v0.23, kept by graft, docs/passes.md): a stays busy until v's last use, so b gets
# its own storage.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function(pure=False)
    def main(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(x, a)
        v = R.call_packed("vm.builtin.reshape", a, R.shape([8]), sinfo_args=(R.Tensor((8,), "float32"),))
        b = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(x, b)
        c = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(v, c)
        _4 = cls.f(b, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function(pure=False)
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        v: R.Tensor((8,), dtype="float32") = R.call_packed("vm.builtin.reshape", a, R.shape([8]), sinfo_args=(R.Tensor((8,), dtype="float32"),))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, b)
        c: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(v, c)
        cls.f(b, c)
        return c
