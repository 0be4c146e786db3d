# Chains inside if branches are fused like any block.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((16,), dtype="float32"):
        if flag:
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            r: R.Tensor((16,), dtype="float32") = R.sin(a)
        else:
            b: R.Tensor((16,), dtype="float32") = R.cos(x)
            r: R.Tensor((16,), dtype="float32") = R.sqrt(b)
        return r


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_cos_sqrt(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            b: R.Tensor((16,), dtype="float32") = R.cos(x)
            r_else: R.Tensor((16,), dtype="float32") = R.sqrt(b)
            R.output(r_else)
        return r_else

    @R.function(private=True)
    def fused_exp_sin(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            r_then: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(r_then)
        return r_then

    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((16,), dtype="float32"):
        if flag:
            r_then = R.call_dps_packed("graft.fused.fused_exp_sin", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            r: R.Tensor((16,), dtype="float32") = r_then
        else:
            r_else = R.call_dps_packed("graft.fused.fused_cos_sqrt", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            r: R.Tensor((16,), dtype="float32") = r_else
        return r
