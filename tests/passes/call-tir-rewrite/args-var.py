# v0.23: when the arguments are a tuple var rather than an inline tuple, the
# var is passed as the single argument and tir_vars is dropped.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        t = (x,)
        y = R.call_dps_packed("test.copy", t, out_sinfo=R.Tensor((4,), "float32"))
        return y


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        t = (x,)
        alloc = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        _ = R.call_packed("test.copy", t, alloc)
        y = alloc
        return y
