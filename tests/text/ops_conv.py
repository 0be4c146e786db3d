# Convolutions and pools: TVM's attrs (every field printed), the wrappers'
# int-to-list and padding completion, packed layouts (NCHW4c).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Conv:
    @R.function
    def conv(x: R.Tensor((2, 4, 28, 28), "float32"), w: R.Tensor((8, 4, 3, 3), "float32"), x1: R.Tensor((2, 4, 28), "float16"), w1: R.Tensor((8, 2, 3), "float16"), x3: R.Tensor((1, 4, 8, 8, 8), "float32"), w3: R.Tensor((4, 4, 3, 3, 3), "float32")) -> R.Tensor((2, 8, 26, 26), "float32"):
        a = R.nn.conv2d(x, w)
        b = R.nn.conv2d(x, w, strides=2, padding=1, dilation=1, groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
        c = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 2], dilation=[2, 2])
        d = R.nn.conv1d(x1, w1, strides=1, padding=[1, 1], groups=2, out_dtype="float32")
        e = R.nn.conv3d(x3, w3, padding=1)
        return a

    @R.function
    def nhwc(x: R.Tensor((2, 28, 28, 4), "float32"), w: R.Tensor((8, 3, 3, 4), "float32")) -> R.Tensor((2, 26, 26, 8), "float32"):
        a = R.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="OHWI")
        b = R.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="OHWI", out_layout="NCHW")
        return a

    @R.function
    def packed(x: R.Tensor((2, 1, 28, 28, 4), "float32"), w: R.Tensor((1, 4, 3, 3, 4), "float32")) -> R.Tensor((2, 1, 26, 26, 4), "float32"):
        a = R.nn.conv2d(x, w, data_layout="NCHW4c", kernel_layout="OIHW4o", out_layout="NCHW4c", out_dtype="float32")
        return a

    @R.function
    def transpose(x: R.Tensor((1, 4, 8, 8), "float32"), w: R.Tensor((4, 6, 3, 3), "float32"), x1: R.Tensor((1, 4, 8), "float32"), w1: R.Tensor((4, 2, 3), "float32")) -> R.Tensor((1, 6, 17, 17), "float32"):
        a = R.nn.conv2d_transpose(x, w, strides=2, padding=0, output_padding=0)
        b = R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1], output_padding=[1, 1])
        c = R.nn.conv1d_transpose(x1, w1, strides=1, padding=0, output_padding=0, dilation=1, groups=1)
        return a

    @R.function
    def pools(x: R.Tensor((1, 4, 32, 32), "float32"), x1: R.Tensor((1, 4, 32), "float32"), x3: R.Tensor(("n", 4, 8, 8, 8), "float32")) -> R.Tensor((1, 4, 16, 16), "float32"):
        n = T.int64()
        a = R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], dilation=[1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
        b = R.nn.avg_pool2d(x, pool_size=3, strides=2, padding=1, ceil_mode=True)
        c = R.nn.max_pool1d(x1, pool_size=[3], strides=[1], padding=[1, 1])
        d = R.nn.avg_pool1d(x1, 2, 2)
        e = R.nn.max_pool3d(x3, pool_size=2, strides=2)
        f = R.nn.avg_pool3d(x3, pool_size=[2, 2, 2], strides=[2, 2, 2], padding=[0, 0, 0, 0, 0, 0], layout="NCDHW")
        g = R.nn.adaptive_avg_pool2d(x, output_size=[1, 1])
        h = R.nn.adaptive_avg_pool2d(x)
        i = R.nn.adaptive_avg_pool1d(x1, output_size=4)
        j = R.nn.adaptive_avg_pool3d(x3, output_size=[2, 2, 2], layout="NCDHW", out_layout="NCDHW")
        k = R.nn.max_pool2d(x, pool_size=[2, 2], layout="NHWC")
        return a

    @R.function
    def unknown_shapes(x: R.Tensor(ndim=4, dtype="float32"), w: R.Tensor((8, 4, 3, 3), "float32")) -> R.Tensor(ndim=4, dtype="float32"):
        a = R.nn.conv2d(x, w)
        b = R.nn.max_pool2d(x)
        return a
