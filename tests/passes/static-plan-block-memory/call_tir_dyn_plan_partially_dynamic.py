# TVM test_call_tir_dyn_plan_partially_dynamic: only n is bounded, so the
# planned requests are symbolic, 80 * m bytes; c reuses a's storage because
# the sizes are provably equal. The unplanned output d gets its own storage
# of the upper-bounded dims times the element bytes, left to right: 20 * m * 4.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def full(var_full: T.handle, n: T.int64, m: T.int64):
        T.evaluate(0)

    @T.prim_func
    def exp(var_a: T.handle, var_b: T.handle):
        T.evaluate(0)

    @R.function
    def main(s: R.Shape(["n", "m"])) -> R.Tensor(("n", "m"), "float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 20}, "relax.force_pure": True, "relax.memory_plan_dynamic_func_output": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        _ = R.vm.call_tir_dyn(cls.full, (a, R.shape([n, m])))
        b = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.exp(a, b)
        c = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.exp(b, c)
        d = R.builtin.alloc_tensor(R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.exp(c, d)
        return d


@I.ir_module
class Expected:
    @T.prim_func
    def exp(var_a: T.handle, var_b: T.handle):
        T.evaluate(0)

    @T.prim_func
    def full(var_full: T.handle, n: T.int64, m: T.int64):
        T.evaluate(0)

    @R.function
    def main(s: R.Shape(["n", "m"])) -> R.Tensor(("n", "m"), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"n": 20}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([80 * m]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n, m), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        R.vm.call_tir_dyn(cls.full, (a, R.shape([n, m])))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([80 * m]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((n, m), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(a, b)
        c: R.Tensor((n, m), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(b, c)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([20 * m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        d: R.Tensor((n, m), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([n, m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(c, d)
        return d
