# TVM's test_op_view.py (test_lower_runtime_builtin_shape_change): a view in a
# pure function, with no dataflow or purity pass before, lowers to a call of
# the pure ExternFunc runtime.TVMTensorCreateView; no precondition is needed.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor([4096], "float32")) -> R.Tensor([64, 64], "float32"):
        B = R.memory.view(A, shape=R.shape([64, 64]))
        return B


@I.ir_module
class Expected:
    @R.function
    def main(A: R.Tensor([4096], "float32")) -> R.Tensor([64, 64], "float32"):
        B: R.Tensor([64, 64], "float32") = R.ExternFunc(
            "runtime.TVMTensorCreateView",
            R.Callable(derive_func="tvm.relax.struct_info.infer_view_sinfo", purity=True),
        )(A, R.shape([64, 64]), R.dtype("float32"), R.prim_value(0))
        return B
