# A value the function returns is not fused into its readers' group: it stays a separate
# binding, and the group starts after it.
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
    def fused_sin_cos(a: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.cos(b)
            R.output(c)
        return c

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor((16,), dtype="float32")):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            c = R.call_dps_packed("graft.fused.fused_sin_cos", (a,), out_sinfo=R.Tensor((16,), dtype="float32"))
            R.output(a, c)
        return (a, c)
