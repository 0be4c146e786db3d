# call_inplace_packed becomes a direct packed call and loses its
# inplace_indices attribute; its sinfo_args stay.
# PIPELINE: remove-purity-checking
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.call_inplace_packed("test.inplace_add", x, y, inplace_indices=[0], sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return z


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        z = R.call_packed("test.inplace_add", x, y, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return z
