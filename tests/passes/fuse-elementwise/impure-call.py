# An impure call ends a group: nothing moves across R.print, so exp (before) and sin (after) stay
# apart, while sin and cos after it fuse.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        a: R.Tensor((16,), dtype="float32") = R.exp(x)
        R.print(x, format="x")
        b: R.Tensor((16,), dtype="float32") = R.sin(a)
        c: R.Tensor((16,), dtype="float32") = R.cos(b)
        return c


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

    @R.function(pure=False)
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        a: R.Tensor((16,), dtype="float32") = R.exp(x)
        R.print(x, format=R.str("x"))
        c = R.call_dps_packed("graft.fused.fused_sin_cos", (a,), out_sinfo=R.Tensor((16,), dtype="float32"))
        return c
