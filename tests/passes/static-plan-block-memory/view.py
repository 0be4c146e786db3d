# TVM test_view: R.memory.view and R.memory.ensure_zero_offset alias their
# input, so x's storage stays busy through y's writer and y gets its own
# 512-byte storage; the output z stays builtin.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main() -> R.Tensor((128,), "float32"):
        cls = Before
        x = R.builtin.alloc_tensor(R.shape([16, 16]), R.dtype("float32"), R.prim_value(0))
        x1 = R.memory.view(x, R.shape([128]), R.dtype("float32"), R.prim_value(0))
        x2 = R.memory.ensure_zero_offset(x1)
        y = R.builtin.alloc_tensor(R.shape([128]), R.dtype("float32"), R.prim_value(0))
        cls.f(x2, y)
        z = R.builtin.alloc_tensor(R.shape([128]), R.dtype("float32"), R.prim_value(0))
        cls.f(y, z)
        return z


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main() -> R.Tensor((128,), dtype="float32"):
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([1024]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        x: R.Tensor((16, 16), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([16, 16]), R.dtype("float32"), R.prim_value(0))
        x1: R.Tensor((128,), dtype="float32") = R.memory.view(x, R.shape([128]), R.dtype("float32"), R.prim_value(0))
        x2: R.Tensor((128,), dtype="float32") = R.memory.ensure_zero_offset(x1)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([512]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        y: R.Tensor((128,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([128]), R.dtype("float32"), R.prim_value(0))
        cls.f(x2, y)
        z: R.Tensor((128,), dtype="float32") = R.builtin.alloc_tensor(R.shape([128]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(y, z)
        return z
