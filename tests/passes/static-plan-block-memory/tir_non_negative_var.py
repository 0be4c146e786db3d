# tir_non_negative_var: b * v with b in [0, 32] is at most 32 * v only when v
# is known non-negative; then the request is 4 * (32 * v) bytes
# (known_sign). Without it (unknown_sign) graft bounds nothing and keeps the
# symbolic size 4 * (b * v) (TVM would state the bound as a select on the
# sign of v; graft does not).
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def known_sign(x: R.Tensor(("b", "v"), "float32")) -> R.Tensor(("b * v",), "float32"):
        b = T.int64()
        v = T.int64()
        R.func_attr({"tir_var_upper_bound": {"b": 32}, "tir_non_negative_var": ["v"], "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        c = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(a, c)
        return c

    @R.function
    def unknown_sign(x: R.Tensor(("b", "v"), "float32")) -> R.Tensor(("b * v",), "float32"):
        b = T.int64()
        v = T.int64()
        R.func_attr({"tir_var_upper_bound": {"b": 32}, "relax.force_pure": True})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        _ = cls.f(x, a)
        c = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(a, c)
        return c


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def known_sign(x: R.Tensor(("b", "v"), dtype="float32")) -> R.Tensor(("b * v",), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"b": 32}, "tir_non_negative_var": ["v"], "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([4 * (32 * v)]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((b * v,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        c: R.Tensor((b * v,), dtype="float32") = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(a, c)
        return c

    @R.function
    def unknown_sign(x: R.Tensor(("b", "v"), dtype="float32")) -> R.Tensor(("b * v",), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"b": 32}, "relax.force_pure": True})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([4 * (b * v)]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((b * v,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([b * v]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        c: R.Tensor((b * v,), dtype="float32") = R.builtin.alloc_tensor(R.shape([b * v]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(a, c)
        return c
