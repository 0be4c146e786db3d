# layout_transform and its index maps: a bare lambda (int64 parameters, as
# the op's wrapper builds it), T.index_map with an index dtype and an inverse.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Layout:
    @R.function
    def split(x: R.Tensor((16,), "float32")) -> R.Tensor((4, 4), "float32"):
        with R.dataflow():
            a = R.layout_transform(x, index_map=lambda i: (i // 4, i % 4), pad_value=None)
            b: R.Tensor((16,), "float32") = R.layout_transform(a, index_map=lambda axis0, axis1: (axis0 * 4 + axis1,), pad_value=None, axis_separators=[], input_axis_separators=[1])
            c = R.layout_transform(b, index_map=T.index_map(lambda i: (i // 4, i % 4)), axis_separators=[1])
            R.output(c)
        return c

    @R.function
    def nchw4c(x: R.Tensor((2, 8, 28, 28), "float32")) -> R.Tensor((2, 2, 28, 28, 4), "float32"):
        a = R.layout_transform(x, index_map=T.index_map(lambda i0, i1, i2, i3: (i0, i1 // 4, i2, i3, i1 % 4), index_dtype="int32"))
        b = R.layout_transform(a, index_map=T.index_map(lambda i0, i1, i2, i3, i4: (i0, i1 * 4 + i4, i2, i3), index_dtype="int32"))
        c = R.layout_transform(b, index_map=T.index_map(lambda i, j, k, l: (i, k, l, j), inverse_index_map=lambda i, k, l, j: (i, j, k, l)))
        return a

    @R.function
    def symbolic(x: R.Tensor(("n", 8), "float32"), y: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(ndim=3, dtype="float32"):
        n = T.int64()
        a = R.layout_transform(x, index_map=lambda i, j: (j, i))
        b = R.layout_transform(x, index_map=lambda i, j: (i, j // 2, j % 2))
        c = R.layout_transform(y, index_map=lambda i, j: (i, j // 2, j % 2))
        return c
