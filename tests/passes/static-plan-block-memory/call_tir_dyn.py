# TVM test_call_tir_dyn: R.vm.call_tir_dyn counts as a use of the tensors in
# its argument tuple, like a PrimFunc call. n is bounded by 20 through the
# R.Shape parameter, so each (n,) f32 request is an 80-byte storage; a and b
# are live together, and the returned c stays R.builtin.alloc_tensor.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def full(var_full: T.handle, n: T.int64):
        T.evaluate(0)

    @T.prim_func
    def exp(var_a: T.handle, var_b: T.handle):
        T.evaluate(0)

    @R.function
    def main(s: R.Shape(["n"])) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 20}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _ = R.vm.call_tir_dyn(cls.full, (a, R.shape([n])))
        b = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.exp(a, b)
        c = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.exp(b, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def exp(var_a: T.handle, var_b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def full(var_full: T.handle, n: T.int64):
        T.evaluate(0)

    @R.function
    def main(s: R.Shape(["n"])) -> R.Tensor(("n",), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"n": 20}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([80]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n]), R.dtype("float32"), R.prim_value(0))
        R.vm.call_tir_dyn(cls.full, (a, R.shape([n])))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([80]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n]), R.dtype("float32"), R.prim_value(0))
        cls.exp(a, b)
        c: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.exp(b, c)
        return c
