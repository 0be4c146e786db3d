# gather_elements, gather_nd, scatter_nd, slice_scatter, nn.pad,
# nn.pixel_shuffle, median, unique, image.resize2d and image.grid_sample in
# TVM's spellings: attributes positional or by keyword, defaults printed.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class BatchB:
    @R.function
    def gathers(x: R.Tensor((2, 3, 4), "float32"), i: R.Tensor((2, 3, 4), "int64"), j: R.Tensor((2, 2), "int64"), k: R.Tensor(("n", 3), "int32"), y: R.Tensor(("n", 5), "float16")) -> R.Tensor((2, 3, 4), "float32"):
        n = T.int64()
        a = R.gather_elements(x, i, axis=1)
        b = R.gather_elements(x, i)
        c = R.gather_elements(y, k, -1)
        d = R.gather_nd(x, j)
        e = R.gather_nd(x, j, batch_dims=1)
        return a

    @R.function
    def scatters(x: R.Tensor((4, 5), "float32"), i: R.Tensor((3, 1), "int64"), u: R.Tensor((3, 5), "float32"), s: R.Tensor((2, 5), "float32"), v: R.Tensor((4, 2), "float32")) -> R.Tensor((4, 5), "float32"):
        a = R.scatter_nd(x, i, u)
        b = R.scatter_nd(x, i, u, reduction="add")
        c = R.scatter_nd(x, i, u, "max")
        d = R.slice_scatter(x, s, 0, 4, 2)
        e = R.slice_scatter(x, v, R.prim_value(1), R.prim_value(5), R.prim_value(2), axis=1)
        f = R.slice_scatter(x, s, start=1, end=3, step=1, axis=0)
        return a

    @R.function
    def nn(x: R.Tensor((1, 8, 3, "w"), "float32"), y: R.Tensor((2, 3), "int32")) -> R.Tensor((1, 2, 6, "w * 2"), "float32"):
        w = T.int64()
        a = R.nn.pixel_shuffle(x, 2)
        b = R.nn.pixel_shuffle(x, upscale_factor=1)
        c = R.nn.pad(y, [1, 1, 0, 2])
        d = R.nn.pad(y, pad_width=[0, 0, 1, 1], pad_mode="reflect", pad_value=0.0)
        e = R.nn.pad(x, [0, 0, 0, 0, 1, 1, 2, 2], "constant", 1.5)
        return a

    @R.function
    def statistics(x: R.Tensor((3, 4, 5), "float32"), y: R.Tensor(ndim=2, dtype="int32")) -> R.Tensor((), "float32"):
        a = R.median(x)
        b = R.median(x, axis=1)
        c = R.median(x, axis=[0, 2], keepdims=True)
        d = R.median(x, axis=[-1], keepdims=False)
        e = R.median(y, axis=0)
        f = R.unique(x)
        g = R.unique(x, sorted=False, return_index=True, return_inverse=True, return_counts=True)
        h = R.unique(x, True, False, True, False, 1)
        k = R.unique(y, axis=-1)
        return a

    @R.function
    def image(x: R.Tensor((1, 3, 8, 8), "float32"), z: R.Tensor((1, 8, 8, 3), "float16"), g: R.Tensor((1, 4, 6, 2), "float32")) -> R.Tensor((1, 3, 16, 16), "float32"):
        a = R.image.resize2d(x, R.shape([16, 16]))
        b = R.image.resize2d(x, (4, 6), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")
        c = R.image.resize2d(z, 5, layout="NHWC", method="cubic", cubic_alpha=-0.5, cubic_exclude=1, out_dtype="float32")
        d = R.image.resize2d(x, R.shape([4, 4]), roi=[T.float32(0.0), T.float32(0.0), T.float32(1.0), T.float32(1.0)], coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=1.0)
        e = R.image.grid_sample(x, g)
        f = R.image.grid_sample(x, g, method="nearest", padding_mode="border", align_corners=True)
        h = R.image.grid_sample(z, g, layout="NHWC", padding_mode="reflection")
        return a
