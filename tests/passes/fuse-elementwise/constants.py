# A scalar constant stays inside the fused function (an immediate of the kernel); a constant of
# higher rank becomes an input.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4,), dtype="float32") = R.multiply(x, R.const(2.5, "float32"))
            b: R.Tensor((4,), dtype="float32") = R.add(a, R.const([1.0, 2.0, 3.0, 4.0], "float32"))
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_multiply_add(x: R.Tensor((4,), dtype="float32"), c0: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4,), dtype="float32") = R.multiply(x, R.const(2.5, "float32"))
            b: R.Tensor((4,), dtype="float32") = R.add(a, c0)
            R.output(b)
        return b

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            b = R.call_dps_packed("graft.fused.fused_multiply_add", (x, R.const([1.0, 2.0, 3.0, 4.0], "float32")), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(b)
        return b
