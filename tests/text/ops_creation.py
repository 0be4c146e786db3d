# Creation ops: zeros, ones, full, *_like, arange, tril, triu.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Creation:
    @R.function
    def fills(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        a = R.zeros((2, 3), "float32")
        b = R.ones(R.shape([4]), dtype="int32")
        c = R.full((2, 3), R.const(1.5, "float32"))
        d = R.full([2, 3], R.const(1, "int32"), "float16")
        e = R.zeros_like(x)
        f = R.ones_like(x, dtype="int8")
        g = R.full_like(x, R.const(7, "int32"))
        h = R.full_like(x, R.const(7, "int32"), dtype="int64")
        return a

    @R.function
    def symbolic(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("n", "m"), "float32"):
        n = T.int64()
        m = T.int64()
        a = R.zeros((n, m), "float32")
        b = R.ones(R.shape([n * 2]), "float32")
        c = R.full((m,), R.const(0, "float32"), "float32")
        return a

    @R.function
    def ranges() -> R.Tensor((10,), "int64"):
        a = R.arange(10)
        b = R.arange(1, 10, 2)
        c = R.arange(0, 5, dtype="int32")
        d = R.arange(0.0, 1.0, 0.25)
        e = R.arange(start=2, end=8, step=3, dtype="float32")
        return a

    @R.function
    def triangles(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
        a = R.tril(x)
        b = R.triu(x, 1)
        c = R.tril(x, k=-1)
        d = R.triu(x, R.prim_value(2))
        return a
