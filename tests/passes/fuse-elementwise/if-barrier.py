# An if between two ops ends the group: exp before the if and sin after it stay apart (exp's
# value is read only by sin).
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((16,), dtype="float32"):
        a: R.Tensor((16,), dtype="float32") = R.exp(x)
        if flag:
            r: R.Tensor((16,), dtype="float32") = x
        else:
            r: R.Tensor((16,), dtype="float32") = R.abs(x)
        b: R.Tensor((16,), dtype="float32") = R.sin(a)
        c: R.Tensor((16,), dtype="float32") = R.add(b, r)
        return c


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_sin_add(a: R.Tensor((16,), dtype="float32"), r: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            c: R.Tensor((16,), dtype="float32") = R.add(b, r)
            R.output(c)
        return c

    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((16,), dtype="float32"):
        a: R.Tensor((16,), dtype="float32") = R.exp(x)
        if flag:
            r: R.Tensor((16,), dtype="float32") = x
        else:
            r_else: R.Tensor((16,), dtype="float32") = R.abs(x)
            r: R.Tensor((16,), dtype="float32") = r_else
        c = R.call_dps_packed("graft.fused.fused_sin_add", (a, r), out_sinfo=R.Tensor((16,), dtype="float32"))
        return c
