# take along an axis (its indices a second input of the group) and concat of a tuple literal join
# the group; the kernel selects each element from the concat operand its index falls in.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((6, 4), dtype="float32"), y: R.Tensor((6, 2), dtype="float32"), idx: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 6), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((6, 4), dtype="float32") = R.sigmoid(x)
            c: R.Tensor((6, 6), dtype="float32") = R.concat((a, y), axis=1)
            t: R.Tensor((3, 6), dtype="float32") = R.take(c, idx, axis=0, mode="wrap")
            m: R.Tensor((3, 6), dtype="float32") = R.multiply(t, R.const(2.0, "float32"))
            R.output(m)
        return m


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_sigmoid_concat_take_multiply(x: R.Tensor((6, 4), dtype="float32"), y: R.Tensor((6, 2), dtype="float32"), idx: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 6), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((6, 4), dtype="float32") = R.sigmoid(x)
            c: R.Tensor((6, 6), dtype="float32") = R.concat((a, y), axis=1)
            t: R.Tensor((3, 6), dtype="float32") = R.take(c, idx, axis=0, mode="wrap")
            m: R.Tensor((3, 6), dtype="float32") = R.multiply(t, R.const(2.0, "float32"))
            R.output(m)
        return m

    @R.function
    def main(x: R.Tensor((6, 4), dtype="float32"), y: R.Tensor((6, 2), dtype="float32"), idx: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 6), dtype="float32"):
        with R.dataflow():
            m = R.call_dps_packed("graft.fused.fused_sigmoid_concat_take_multiply", (x, y, idx), out_sinfo=R.Tensor((3, 6), dtype="float32"))
            R.output(m)
        return m
