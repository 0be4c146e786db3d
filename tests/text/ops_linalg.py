# matmul: 1-D promotion, batch broadcasting, symbolic dims, out_dtype.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Linalg:
    @R.function
    def matmul(a: R.Tensor((2, 3), "float32"), b: R.Tensor((3, 4), "float32"), v: R.Tensor((3,), "float32"), bb: R.Tensor((5, 1, 3, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        x0 = R.matmul(a, b)
        x1 = R.matmul(a, v)
        x2 = R.matmul(v, b)
        x3 = R.matmul(v, v)
        x4 = R.matmul(a, bb)
        x5 = R.matmul(a, b, out_dtype="float16")
        x6 = R.matmul(a, b, "float64")
        return x0

    @R.function
    def symbolic(a: R.Tensor(("b", "n", "k"), "float16"), w: R.Tensor(("k", "m"), "float16")) -> R.Tensor(("b", "n", "m"), "float32"):
        c = R.matmul(a, w, out_dtype="float32")
        return c
