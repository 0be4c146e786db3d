# Convolutions pass strides, padding (before..., after...), dilation,
# groups and the three layouts; transposed ones output_padding too; pools
# their window attrs, ceil_mode, count_include_pad and layouts; adaptive
# pools only their layouts (the output's shape carries output_size);
# batch_norm its five tensors and attrs, yielding a tuple of three.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 4, 8, 8), "float32"), w: R.Tensor((6, 2, 3, 3), "float32"), wt: R.Tensor((4, 3, 3, 3), "float32"), g: R.Tensor((4,), "float32")):
        a = R.nn.conv2d(x, w, strides=2, padding=1, groups=2)
        b = R.nn.conv2d_transpose(x, wt, strides=2, padding=1, output_padding=1)
        c = R.nn.max_pool2d(x, pool_size=3, strides=2, padding=1, ceil_mode=True)
        d = R.nn.avg_pool2d(x, pool_size=2, layout="NHWC", count_include_pad=True)
        e = R.nn.adaptive_avg_pool2d(x, output_size=3)
        f = R.nn.batch_norm(x, g, g, g, g, axis=1, training=False)
        return (a, b, c, d, e, f)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 4, 8, 8), dtype="float32"), w: R.Tensor((6, 2, 3, 3), dtype="float32"), wt: R.Tensor((4, 3, 3, 3), dtype="float32"), g: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((1, 6, 4, 4), dtype="float32"), R.Tensor((1, 3, 16, 16), dtype="float32"), R.Tensor((1, 4, 5, 5), dtype="float32"), R.Tensor((1, 3, 7, 8), dtype="float32"), R.Tensor((1, 4, 3, 3), dtype="float32"), R.Tuple(R.Tensor((1, 4, 8, 8), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"))):
        a = R.call_dps_packed("graft.nn.conv2d", (x, w, R.shape([2, 2]), R.shape([1, 1, 1, 1]), R.shape([1, 1]), R.prim_value(2), R.str("NCHW"), R.str("OIHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 6, 4, 4), dtype="float32"))
        b = R.call_dps_packed("graft.nn.conv2d_transpose", (x, wt, R.shape([2, 2]), R.shape([1, 1, 1, 1]), R.shape([1, 1]), R.shape([1, 1]), R.prim_value(1), R.str("NCHW"), R.str("IOHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 3, 16, 16), dtype="float32"))
        c = R.call_dps_packed("graft.nn.max_pool2d", (x, R.shape([3, 3]), R.shape([2, 2]), R.shape([1, 1, 1, 1]), R.shape([1, 1]), R.prim_value(T.bool(True)), R.prim_value(T.bool(False)), R.str("NCHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 4, 5, 5), dtype="float32"))
        d = R.call_dps_packed("graft.nn.avg_pool2d", (x, R.shape([2, 2]), R.shape([1, 1]), R.shape([0, 0, 0, 0]), R.shape([1, 1]), R.prim_value(T.bool(False)), R.prim_value(T.bool(True)), R.str("NHWC"), R.str("NHWC")), out_sinfo=R.Tensor((1, 3, 7, 8), dtype="float32"))
        e = R.call_dps_packed("graft.nn.adaptive_avg_pool2d", (x, R.str("NCHW"), R.str("NCHW")), out_sinfo=R.Tensor((1, 4, 3, 3), dtype="float32"))
        f = R.call_dps_packed("graft.nn.batch_norm", (x, g, g, g, g, R.prim_value(1), R.prim_value(T.float64(1.0000000000000001e-05)), R.prim_value(T.bool(True)), R.prim_value(T.bool(True)), R.prim_value(T.float64(0.10000000000000001)), R.prim_value(T.bool(False))), out_sinfo=[R.Tensor((1, 4, 8, 8), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")])
        return (a, b, c, d, e, f)
