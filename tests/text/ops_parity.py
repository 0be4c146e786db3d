# Ops registered for TVM parity without a kernel yet: repeat, tile, flip,
# dynamic_strided_slice, quantize/dequantize, topk, einsum, nn.batch_norm and
# the gradient checkpoint markers.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Parity:
    @R.function
    def rearrange(x: R.Tensor((2, 3, 4), "float32"), y: R.Tensor(("n", 4), "float32"), b: R.Tensor((3,), "int64"), e: R.Tensor((3,), "int64"), s: R.Tensor((3,), "int64")) -> R.Tensor((2, 6, 4), "float32"):
        n = T.int64()
        a = R.repeat(x, 2, axis=1)
        c = R.repeat(x, repeats=3)
        d = R.repeat(y, 2, axis=0)
        f = R.tile(x, [2, 1, 1])
        g = R.tile(x, 2)
        h = R.tile(y, [3, 1, 1])
        i = R.flip(x, axis=1)
        j = R.flip(y, -1)
        k = R.dynamic_strided_slice(x, b, e, s)
        return a

    @R.function
    def qdq(x: R.Tensor((2, 4), "float32"), scale: R.Tensor((4,), "float32"), zp: R.Tensor((4,), "int8"), s1: R.Tensor((), "float16"), z1: R.Tensor((), "float16")) -> R.Tensor((2, 4), "float32"):
        q = R.quantize(x, scale, zp, axis=1, out_dtype="int8")
        q2 = R.quantize(x, s1, z1)
        d = R.dequantize(q, scale, zp, axis=-1, out_dtype="float32")
        d2 = R.dequantize(q2, s1, z1, out_dtype="float16")
        return d

    @R.function
    def topk(x: R.Tensor((2, 10), "float32"), y: R.Tensor(ndim=2, dtype="float32")) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "int32")):
        a = R.topk(x, k=3, axis=-1, ret_type="both", largest=True, dtype="int32")
        b = R.topk(x, 2, 0, "values")
        c = R.topk(y, k=3, ret_type="indices", largest=False, dtype="int64")
        return a

    @R.function
    def einsum(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3, 4), "float32"), z: R.Tensor((3,), "float32")) -> R.Tensor((2, 4), "float32"):
        a = R.einsum((x, y), subscripts="ij,jk->ik")
        b = R.einsum((x, y), "ij,jk")
        c = R.einsum((z, z), "i,i->")
        return a

    @R.function
    def batch_norm(x: R.Tensor((2, 4, 8, 8), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32"), m: R.Tensor((4,), "float32"), v: R.Tensor((4,), "float32")) -> R.Tensor((2, 4, 8, 8), "float32"):
        t = R.nn.batch_norm(x, g, b, m, v, axis=1)
        u = R.nn.batch_norm(x, g, b, m, v, 1, 1e-3, False, True, 0.2, False)
        y = t[0]
        return y

    @R.function
    def checkpoint(x: R.Tensor((2, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        a = R.grad.start_checkpoint(x)
        b = R.exp(a)
        c = R.grad.end_checkpoint(b)
        return c
