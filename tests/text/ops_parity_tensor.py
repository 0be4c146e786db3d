# TVM's stack, meshgrid, one_hot, outer, eye/eye_like, hamming_window,
# ewise_fma, log_add_exp, nn.selu, collapse_sum_like/_to and bucketize:
# attributes positional or by keyword, PrimValue arguments as plain numbers.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class ParityTensor:
    @R.function
    def assemble(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32"), v: R.Tensor((4,), "int64"), w: R.Tensor(("n",), "int64")) -> R.Tensor((2, 2, 3), "float32"):
        n = T.int64()
        a = R.stack((x, y), axis=1)
        b = R.stack([x, y, x])
        c = R.stack((x,), -1)
        d = R.meshgrid((v, w))
        e = R.meshgrid([v, v], indexing="xy")
        f = R.one_hot(v, R.prim_value(1), R.prim_value(0), depth=3)
        g = R.one_hot(w, R.prim_value(T.float32(1.5)), R.prim_value(T.float32(0)), 4, axis=0)
        return a

    @R.function
    def create(x: R.Tensor((3, 3), "float16"), m: R.Tensor(("k", "k"), "int32")) -> R.Tensor((3, 4), "float32"):
        k = T.int64()
        a = R.eye(3, 4)
        b = R.eye(5, k=1, dtype="int32")
        c = R.eye(k, k, -1, "bool")
        d = R.eye_like(x)
        e = R.eye_like(m, 2, dtype="float32")
        f = R.hamming_window(10, True, 0.54, 0.46, dtype="float32")
        g = R.hamming_window(k, False, 0.5, 0.5, "float16")
        return a

    @R.function
    def arith(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32"), z: R.Tensor(("n",), "float32"), u: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor((2, 3), "float32"):
        n = T.int64()
        a = R.ewise_fma(x, x, x)
        b = R.ewise_fma(u, u, u)
        c = R.log_add_exp(x, y)
        d = R.nn.selu(x)
        e = R.outer(y, z)
        f = R.collapse_sum_like(x, y)
        g = R.collapse_sum_to(x, (1, 3))
        h = R.collapse_sum_to(x, R.shape([2, 1]))
        i = R.bucketize(x, y)
        j = R.bucketize(z, y, out_int32=True, right=True)
        return a
