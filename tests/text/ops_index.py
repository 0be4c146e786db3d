# Indexing ops: strided_slice, take, index_tensor and index_put (integer
# indices and boolean masks), scatter_elements, nonzero.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Index:
    @R.function
    def slicing(x: R.Tensor((8, 9), "float32"), y: R.Tensor(("n", 9), "float32")) -> R.Tensor((4, 9), "float32"):
        n = T.int64()
        a = R.strided_slice(x, axes=[0], begin=[2], end=[6])
        b = R.strided_slice(x, [0, 1], [0, 1], [8, 9], [2, 3])
        c = R.strided_slice(x, axes=[1], begin=[-1], end=[-10], strides=[-1])
        d = R.strided_slice(x, axes=[0], begin=[1], end=[100], assume_inbound=True)
        e = R.strided_slice(y, axes=[0], begin=[1], end=[n])
        return a

    @R.function
    def take(x: R.Tensor((5, 4), "float32"), i: R.Tensor((3,), "int64"), j: R.Tensor((2, 2), "int32"), v: R.Tensor((5,), "float32")) -> R.Tensor((3, 4), "float32"):
        a = R.take(x, i, axis=0)
        b = R.take(x, j, axis=1, mode="clip")
        c = R.take(v, i)
        d = R.take(x, R.prim_value(1), axis=0)
        e = R.take(x, i, 0, "wrap")
        return a

    @R.function
    def index_tensor(x: R.Tensor((5, 4, 3), "float32"), i: R.Tensor((2,), "int64"), j: R.Tensor((2,), "int64"), mask: R.Tensor((5,), "bool"), mask2: R.Tensor((5, 4), "bool")) -> R.Tensor((2, 3), "float32"):
        a = R.index_tensor(x, (i, j))
        b = R.index_tensor(x, [i])
        c = R.index_tensor(x, (mask,))
        d = R.index_tensor(x, (mask2,))
        return a

    @R.function
    def index_put(x: R.Tensor((5, 4), "float32"), i: R.Tensor((2,), "int64"), j: R.Tensor((2,), "int64"), v: R.Tensor((2,), "float32"), mask: R.Tensor((5,), "bool"), rows: R.Tensor((3, 4), "float32"), mask2: R.Tensor((5, 4), "bool"), flat: R.Tensor((7,), "float32")) -> R.Tensor((5, 4), "float32"):
        a = R.index_put(x, (i, j), v)
        b = R.index_put(x, [i, j], v, accumulate=True)
        c = R.index_put(x, (mask,), rows)
        d = R.index_put(x, (mask2,), flat, True)
        return a

    @R.function
    def scatter(x: R.Tensor((3, 3), "float32"), idx: R.Tensor((2, 3), "int64"), upd: R.Tensor((2, 3), "float32")) -> R.Tensor((3, 3), "float32"):
        a = R.scatter_elements(x, idx, upd)
        b = R.scatter_elements(x, idx, upd, axis=1, reduction="add")
        c = R.scatter_elements(x, idx, upd, 0, "mul")
        return a

    @R.function
    def nonzero(x: R.Tensor((3, 4), "bool")) -> R.Tensor(dtype="int64", ndim=2):
        a = R.nonzero(x)
        return a
