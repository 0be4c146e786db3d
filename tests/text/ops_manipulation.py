# Shape manipulation: permute_dims, reshape (-1 and 0), broadcast_to,
# expand_dims, squeeze, flatten, concat, split (sections and indices).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Manipulation:
    @R.function
    def static(x: R.Tensor((2, 3, 4), "float32")) -> R.Tensor((24,), "float32"):
        a = R.permute_dims(x)
        b = R.permute_dims(x, axes=[0, 2, 1])
        c = R.permute_dims(x, [2, 0, 1])
        d = R.reshape(x, (6, 4))
        e = R.reshape(x, [-1, 4])
        f = R.reshape(x, R.shape([2, 12]))
        g = R.reshape(x, (0, -1))
        h = R.broadcast_to(R.reshape(x, (2, 3, 4, 1)), (2, 3, 4, 5))
        i = R.expand_dims(x, 0)
        j = R.expand_dims(x, axis=[1, -1])
        k = R.squeeze(i)
        l = R.squeeze(i, axis=[0])
        m = R.squeeze(i, 0)
        n = R.flatten(x)
        return n

    @R.function
    def concat_split(x: R.Tensor((4, 6), "float32"), y: R.Tensor((4, 2), "float32")) -> R.Tensor((4, 8), "float32"):
        a = R.concat((x, y), axis=1)
        b = R.concat([x, x])
        c = R.split(x, 2)
        d = R.split(x, indices_or_sections=3, axis=1)
        e = R.split(x, [1, 3], axis=1)
        f = R.split(x, indices_or_sections=[2], axis=0)
        return a

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), "float32"), s: R.Shape(["a", "b"])) -> R.Tensor(("n * m",), "float32"):
        n = T.int64()
        m = T.int64()
        a = R.permute_dims(x)
        b = R.reshape(x, (n * m,))
        c = R.reshape(x, (-1,))
        d = R.reshape(x, s)
        e = R.expand_dims(x, axis=1)
        f = R.squeeze(x)
        g = R.concat((x, x), axis=0)
        h = R.split(x, 2, axis=1)
        i = R.broadcast_to(x, (2, n, m))
        return b
