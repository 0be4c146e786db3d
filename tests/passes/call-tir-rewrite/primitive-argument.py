# TVM's test_call_tir_rewrite_with_interspersed_primitive_argument: a scalar
# argument between tensors is passed through in place; the output goes last.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def scale_add(A: T.Buffer((16,), "float32"), scale: T.float32, C: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            B[i] = A[i] + scale * C[i]

    @R.function
    def main(A: R.Tensor((16,), "float32"), scale: R.Prim("float32"), C: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        B = R.call_tir(cls.scale_add, (A, scale, C), out_sinfo=R.Tensor((16,), "float32"))
        return B


@I.ir_module
class Expected:
    @T.prim_func
    def scale_add(A: T.Buffer((16,), "float32"), scale: T.float32, C: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            B[i] = A[i] + scale * C[i]

    @R.function
    def main(A: R.Tensor((16,), "float32"), scale: R.Prim("float32"), C: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        out = R.builtin.alloc_tensor(R.shape([16]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((16,), dtype="float32"),))
        _ = cls.scale_add(A, scale, C, out)
        B = out
        return B
