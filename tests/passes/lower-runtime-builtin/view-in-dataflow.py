# A view inside a dataflow block stays there: the lowered call is pure. The
# dtype and offset come from the input; the unknown-shape input takes the
# given shape (TVM's test_lower_runtime_builtin_view_shape_from_unknown).
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor(dtype="float32", ndim=1), off: R.Prim("int64")) -> R.Tensor([8, 8], "int8"):
        with R.dataflow():
            B = R.memory.view(A, shape=R.shape([8, 8]), dtype=R.dtype("int8"), relative_byte_offset=off)
            R.output(B)
        return B


@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor(dtype="float32", ndim=1), off: R.Prim("int64")) -> R.Tensor([8, 8], "int8"):
        with R.dataflow():
            B = R.ExternFunc(
                "runtime.TVMTensorCreateView",
                R.Callable(derive_func="tvm.relax.struct_info.infer_view_sinfo", purity=True),
            )(A, R.shape([8, 8]), R.dtype("int8"), off)
            R.output(B)
        return B
