# gather_elements, gather_nd, scatter_nd, slice_scatter (start/end/step as
# the kernel's attributes), nn.pad, nn.pixel_shuffle, median (a tuple of
# values and indices for one axis, an unset axis as R.null_value()),
# image.resize2d (roi and extrapolation_value are not kernel attributes:
# tf_crop_and_resize is refused) and image.grid_sample.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), i: R.Tensor((2, 3), "int64"), j: R.Tensor((2, 1), "int64"), u: R.Tensor((2, 3), "float32"), s: R.Tensor((1, 3), "float32"), y: R.Tensor((1, 4, 2, 2), "float32"), g: R.Tensor((1, 3, 3, 2), "float32")):
        a = R.gather_elements(x, i, axis=1)
        b = R.gather_nd(x, j)
        c = R.scatter_nd(x, j, u, reduction="add")
        d = R.slice_scatter(x, s, 0, 2, 2)
        e = R.nn.pad(x, [1, 0, 0, 1], pad_mode="reflect")
        f = R.nn.pixel_shuffle(y, 2)
        m = R.median(x, axis=1)
        n = R.median(x)
        r = R.image.resize2d(y, R.shape([4, 4]), method="cubic")
        h = R.image.grid_sample(y, g, align_corners=True)
        return (a, b, c, d, e, f, m, n, r, h)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), i: R.Tensor((2, 3), dtype="int64"), j: R.Tensor((2, 1), dtype="int64"), u: R.Tensor((2, 3), dtype="float32"), s: R.Tensor((1, 3), dtype="float32"), y: R.Tensor((1, 4, 2, 2), dtype="float32"), g: R.Tensor((1, 3, 3, 2), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((3, 4), dtype="float32"), R.Tensor((1, 1, 4, 4), dtype="float32"), R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="int64")), R.Tensor((), dtype="float32"), R.Tensor((1, 4, 4, 4), dtype="float32"), R.Tensor((1, 4, 3, 3), dtype="float32")):
        a = R.call_dps_packed("graft.gather_elements", (x, i, R.prim_value(1)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b = R.call_dps_packed("graft.gather_nd", (x, j, R.prim_value(0)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        c = R.call_dps_packed("graft.scatter_nd", (x, j, u, R.str("add")), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        d = R.call_dps_packed("graft.slice_scatter", (x, s, R.prim_value(0), R.prim_value(0), R.prim_value(2), R.prim_value(2)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        e = R.call_dps_packed("graft.nn.pad", (x, R.shape([1, 0, 0, 1]), R.str("reflect"), R.prim_value(T.float64(0.0))), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        f = R.call_dps_packed("graft.nn.pixel_shuffle", (y, R.prim_value(2)), out_sinfo=R.Tensor((1, 1, 4, 4), dtype="float32"))
        m = R.call_dps_packed("graft.median", (x, R.shape([1]), R.prim_value(T.bool(False))), out_sinfo=[R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="int64")])
        none: R.Object = R.null_value()
        n = R.call_dps_packed("graft.median", (x, none, R.prim_value(T.bool(False))), out_sinfo=R.Tensor((), dtype="float32"))
        r = R.call_dps_packed("graft.image.resize2d", (y, R.str("NCHW"), R.str("cubic"), R.str("half_pixel"), R.str("round"), R.prim_value(T.float64(-0.75)), R.prim_value(0)), out_sinfo=R.Tensor((1, 4, 4, 4), dtype="float32"))
        h = R.call_dps_packed("graft.image.grid_sample", (y, g, R.str("bilinear"), R.str("NCHW"), R.str("zeros"), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 4, 3, 3), dtype="float32"))
        return (a, b, c, d, e, f, m, n, r, h)
