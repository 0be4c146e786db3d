# Passes after fuse-elementwise leave the Primitive function alone: to-non-dataflow keeps its
# dataflow block, and dead-code-elimination keeps it while a call names its kernel.
# PIPELINE: fuse-elementwise,to-non-dataflow,dead-code-elimination
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_exp_sin(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(b)
        return b

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        b = R.call_dps_packed("graft.fused.fused_exp_sin", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
        return b
