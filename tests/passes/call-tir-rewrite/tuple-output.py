# Several outputs: one allocation each, in order; the call's value becomes the
# tuple of the allocations.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def split(A: T.Buffer((4,), "float32"), B: T.Buffer((2,), "float32"), C: T.Buffer((2,), "int32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tensor((2,), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        y = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((2,), "float32"), R.Tensor((2,), "int32")])
        return y


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def split(A: T.Buffer((4,), "float32"), B: T.Buffer((2,), "float32"), C: T.Buffer((2,), "int32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tensor((2,), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        a0 = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((2,), dtype="float32"),))
        a1 = R.builtin.alloc_tensor(R.shape([2]), R.dtype("int32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((2,), dtype="int32"),))
        _ = cls.split(x, a0, a1)
        y = (a0, a1)
        return y
