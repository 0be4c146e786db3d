# TVM test_tir_var_upper_bound: n is bounded by 20 in the signature, so the
# (n,) f32 requests are 80 B constant storages (a and b are live together);
# the alloc_tensors keep their symbolic shapes. m has no bound: its storage
# is symbolic, 4 * m bytes.
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("m",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 20}})
        cls = Before
        a = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _1 = cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _2 = cls.f(a, b)
        c = R.builtin.alloc_tensor(R.shape([m]), R.dtype("float32"), R.prim_value(0))
        _3 = cls.f(y, c)
        d = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        _4 = cls.f(b, d)
        return d


@I.ir_module
class Expected:
    @T.prim_func
    def f(a: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        R.func_attr({"tir_var_upper_bound": {"n": 20}})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([80]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n]), R.dtype("float32"), R.prim_value(0))
        cls.f(x, a)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([80]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        b: R.Tensor((n,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n]), R.dtype("float32"), R.prim_value(0))
        cls.f(a, b)
        storage_2: R.Object = R.memory.alloc_storage(R.shape([4 * m]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        c: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.f(y, c)
        d: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(b, d)
        return d
