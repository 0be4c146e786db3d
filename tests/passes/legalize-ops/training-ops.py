# The losses, dropout, channel norms and gradient ops: each becomes its
# graft.* kernel with the attributes in the kernel's order; nll_loss
# without weights passes two tensors, an unset take_backward axis is
# R.null_value(), dropout's two outputs are one tuple.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tensor((2, 3), "float32"), t: R.Tensor((2,), "int64"), w: R.Tensor((3,), "float32"), x: R.Tensor((1, 3, 4, 4), "float32"), dy: R.Tensor((1, 3, 2, 2), "float32"), i: R.Tensor((2,), "int32")):
        a = R.nn.nll_loss(p, t)
        b = R.nn.nll_loss(p, t, w, reduction="none", ignore_index=1)
        gb = R.grad.nll_loss_backward(a, p, t, w, reduction="sum")
        c = R.nn.cross_entropy_with_logits(p, p)
        d = R.nn.dropout(x, rate=0.2)
        e = R.nn.group_norm(x, w, w, 3, 1, [2, 3])
        f = R.nn.instance_norm(x, w, w, 1, [2, 3], center=False)
        m = R.grad.max_pool2d_backward(dy, x, [2, 2], [2, 2])
        v = R.grad.avg_pool2d_backward(dy, x, [2, 2], [2, 2], count_include_pad=True)
        k = R.grad.take_backward(p, p, i, axis=0)
        l = R.grad.take_backward(t, t, i)
        return (a, b, gb, c, d, e, f, m, v, k, l)


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tensor((2, 3), dtype="float32"), t: R.Tensor((2,), dtype="int64"), w: R.Tensor((3,), dtype="float32"), x: R.Tensor((1, 3, 4, 4), dtype="float32"), dy: R.Tensor((1, 3, 2, 2), dtype="float32"), i: R.Tensor((2,), dtype="int32")) -> R.Tuple(R.Tensor((), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((), dtype="float32"), R.Tuple(R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32")), R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2,), dtype="int64")):
        a = R.call_dps_packed("graft.nn.nll_loss", (p, t, R.str("mean"), R.prim_value(-100)), out_sinfo=R.Tensor((), dtype="float32"))
        b = R.call_dps_packed("graft.nn.nll_loss", (p, t, w, R.str("none"), R.prim_value(1)), out_sinfo=R.Tensor((2,), dtype="float32"))
        gb = R.call_dps_packed("graft.grad.nll_loss_backward", (a, p, t, w, R.str("sum"), R.prim_value(-100)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        c = R.call_dps_packed("graft.nn.cross_entropy_with_logits", (p, p), out_sinfo=R.Tensor((), dtype="float32"))
        d = R.call_dps_packed("graft.nn.dropout", (x, R.prim_value(T.float64(0.20000000000000001))), out_sinfo=[R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32")])
        e = R.call_dps_packed("graft.nn.group_norm", (x, w, w, R.prim_value(3), R.prim_value(1), R.shape([2, 3]), R.prim_value(T.float64(1.0000000000000001e-05)), R.prim_value(T.bool(True)), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 3, 4, 4), dtype="float32"))
        f = R.call_dps_packed("graft.nn.instance_norm", (x, w, w, R.prim_value(1), R.shape([2, 3]), R.prim_value(T.float64(1.0000000000000001e-05)), R.prim_value(T.bool(False)), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 3, 4, 4), dtype="float32"))
        m = R.call_dps_packed("graft.grad.max_pool2d_backward", (dy, x, R.shape([2, 2]), R.shape([2, 2]), R.shape([0, 0, 0, 0]), R.shape([1, 1]), R.prim_value(T.bool(False)), R.prim_value(T.bool(False)), R.str("NCHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 3, 4, 4), dtype="float32"))
        v = R.call_dps_packed("graft.grad.avg_pool2d_backward", (dy, x, R.shape([2, 2]), R.shape([2, 2]), R.shape([0, 0, 0, 0]), R.shape([1, 1]), R.prim_value(T.bool(False)), R.prim_value(T.bool(True)), R.str("NCHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 3, 4, 4), dtype="float32"))
        k = R.call_dps_packed("graft.grad.take_backward", (p, p, i, R.prim_value(0)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        none: R.Object = R.null_value()
        l = R.call_dps_packed("graft.grad.take_backward", (t, t, i, none), out_sinfo=R.Tensor((2,), dtype="int64"))
        return (a, b, gb, c, d, e, f, m, v, k, l)
