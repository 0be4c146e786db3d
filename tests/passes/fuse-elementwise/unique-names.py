# Two groups of the same ops, and a function already named like the first, get distinct names.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def fused_exp_sin(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            s: R.Tensor((16,), dtype="float32") = R.cumsum(b, axis=0)
            c: R.Tensor((16,), dtype="float32") = R.exp(s)
            d: R.Tensor((16,), dtype="float32") = R.sin(c)
            R.output(d)
        return d


@I.ir_module
class Expected:
    @R.function
    def fused_exp_sin(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        return x

    @R.function(private=True)
    def fused_exp_sin_1(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(b)
        return b

    @R.function(private=True)
    def fused_exp_sin_2(s: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            c: R.Tensor((16,), dtype="float32") = R.exp(s)
            d: R.Tensor((16,), dtype="float32") = R.sin(c)
            R.output(d)
        return d

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            b = R.call_dps_packed("graft.fused.fused_exp_sin_1", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            s: R.Tensor((16,), dtype="float32") = R.cumsum(b, axis=0, dtype="void", exclusive=False)
            d = R.call_dps_packed("graft.fused.fused_exp_sin_2", (s,), out_sinfo=R.Tensor((16,), dtype="float32"))
            R.output(d)
        return d
