# TVM #17488: allocs inside a dataflow block are planned like any others (TVM
# failed an internal check here). The storages are emitted in the block as
# ordinary vars, so they may serve later blocks; the output c stays builtin.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((10,), "float32")) -> R.Tensor((10,), "float32"):
        cls = Before
        with R.dataflow():
            a = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
            _ = cls.f(x, a)
            b = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
            _1 = cls.f(a, b)
            c = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0))
            _2 = cls.f(b, c)
            gv = c
            R.output(gv)
        return gv


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((10,), dtype="float32")) -> R.Tensor((10,), dtype="float32"):
        cls = Expected
        with R.dataflow():
            storage: R.Object = R.memory.alloc_storage(R.shape([40]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            a: R.Tensor((10,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([10]), R.dtype("float32"), R.prim_value(0))
            cls.f(x, a)
            storage_1: R.Object = R.memory.alloc_storage(R.shape([40]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            b: R.Tensor((10,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([10]), R.dtype("float32"), R.prim_value(0))
            cls.f(a, b)
            c: R.Tensor((10,), dtype="float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
            cls.f(b, c)
            gv: R.Tensor((10,), dtype="float32") = c
            R.output(storage, storage_1, gv)
        return gv
