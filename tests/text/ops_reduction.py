# Reductions and scans: sum, mean, max, min, prod, variance, std, argmax,
# argmin, cumsum, cumprod, sort, argsort, size.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Reduction:
    @R.function
    def reduce(x: R.Tensor((2, 3, 4), "float32")) -> R.Tensor((), "float32"):
        a = R.sum(x)
        b = R.sum(x, axis=1)
        c = R.sum(x, axis=[0, 2], keepdims=True)
        d = R.mean(x, axis=[-1])
        e = R.max(x, 1, True)
        f = R.min(x, axis=None, keepdims=False)
        g = R.prod(x, axis=[0, 1])
        h = R.variance(x, axis=[1], keepdims=True)
        i = R.std(x, axis=2)
        return a

    @R.function
    def arg(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2,), "int64"):
        a = R.argmax(x, axis=1)
        b = R.argmin(x, axis=0, keepdims=True)
        c = R.argmax(x)
        d = R.argmin(x, keepdims=True)
        return a

    @R.function
    def scans(x: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        a = R.cumsum(x, axis=1)
        b = R.cumsum(x)
        c = R.cumsum(x, axis=0, dtype="int64", exclusive=True)
        d = R.cumprod(x, axis=1)
        e = R.cumprod(x, 0, "float32")
        return a

    @R.function
    def sorting(x: R.Tensor(("n", 3), "float32")) -> R.Tensor(("n", 3), "float32"):
        n = T.int64()
        a = R.sort(x)
        b = R.sort(x, axis=0, descending=True)
        c = R.argsort(x)
        d = R.argsort(x, axis=1, descending=False, dtype="int64")
        e = R.size(x)
        f = R.sum(x, axis=0)
        return a
