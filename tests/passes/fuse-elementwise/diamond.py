# A diamond (one value read by two members that meet again) is one group.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.cos(a)
            d: R.Tensor((16,), dtype="float32") = R.add(b, c)
            R.output(d)
        return d


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_exp_sin_cos_add(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.cos(a)
            d: R.Tensor((16,), dtype="float32") = R.add(b, c)
            R.output(d)
        return d

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            d = R.call_dps_packed("graft.fused.fused_exp_sin_cos_add", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            R.output(d)
        return d
