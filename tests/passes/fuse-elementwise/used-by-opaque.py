# A value an opaque op (matmul) also reads stays outside the group; the matmul and the reduction
# are not fused; the group after the matmul takes its result as an input.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 4), dtype="float32") = R.exp(x)
            b: R.Tensor((4, 4), dtype="float32") = R.negative(a)
            m: R.Tensor((4, 4), dtype="float32") = R.matmul(a, x)
            c: R.Tensor((4, 4), dtype="float32") = R.add(m, b)
            d: R.Tensor((4, 4), dtype="float32") = R.tanh(c)
            s: R.Tensor((4,), dtype="float32") = R.sum(d, axis=[1])
            R.output(s)
        return s


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_negative_add_tanh(a: R.Tensor((4, 4), dtype="float32"), m: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            b: R.Tensor((4, 4), dtype="float32") = R.negative(a)
            c: R.Tensor((4, 4), dtype="float32") = R.add(m, b)
            d: R.Tensor((4, 4), dtype="float32") = R.tanh(c)
            R.output(d)
        return d

    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 4), dtype="float32") = R.exp(x)
            m: R.Tensor((4, 4), dtype="float32") = R.matmul(a, x, out_dtype="void")
            d = R.call_dps_packed("graft.fused.fused_negative_add_tanh", (a, m), out_sinfo=R.Tensor((4, 4), dtype="float32"))
            s: R.Tensor((4,), dtype="float32") = R.sum(d, axis=[1], keepdims=False)
            R.output(s)
        return s
