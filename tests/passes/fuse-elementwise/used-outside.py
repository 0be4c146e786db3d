# A value read both inside a group and after it becomes a second output of the group's kernel
# (same shape as the root): the fused function returns both, the call gives a tuple, and each
# var is bound to its field after the call.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.cos(b)
            R.output(a, c)
        return (a, c)


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_exp_sin_cos(x: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.cos(b)
            R.output(a, c)
        return (a, c)

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")):
        with R.dataflow():
            fused_exp_sin_cos_out = R.call_dps_packed("graft.fused.fused_exp_sin_cos", (x,), out_sinfo=[R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")])
            a: R.Tensor((16,), dtype="float32") = fused_exp_sin_cos_out[0]
            c: R.Tensor((16,), dtype="float32") = fused_exp_sin_cos_out[1]
            R.output(a, c)
        return (a, c)
