# Two bindings of a dataflow block that nothing reads go; the chain feeding
# the output stays.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"), bias: R.Tensor((26, 26), "float32")):
        with R.dataflow():
            a = R.permute_dims(x, axes=[0, 2, 3, 1])
            b = R.permute_dims(w, axes=[0, 2, 3, 1])
            c: R.Tensor((2, 26, 26, 4), "float32") = R.nn.conv2d(a, b, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC")
            d = R.permute_dims(c, axes=[0, 3, 1, 2])
            e = R.add(d, bias)
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"), bias: R.Tensor((26, 26), "float32")):
        with R.dataflow():
            a = R.permute_dims(x, axes=[0, 2, 3, 1])
            b = R.permute_dims(w, axes=[0, 2, 3, 1])
            c: R.Tensor((2, 26, 26, 4), "float32") = R.nn.conv2d(a, b, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC")
            R.output(c)
        return c
