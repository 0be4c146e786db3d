# The relax.inspect ops: A.dtype.bits, A.ndim, A.shape[i], ... of a Relax tensor. With the
# struct info knowing the value (known) they normalize to R.prim_value, as TVM does; else
# (unknown) they print as R.inspect.tensor_<field>(A).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class M:
    @R.function
    def known(A: R.Tensor(("n", 8), "float32"), B: R.Tensor((2,), "bool")):
        n = T.int64()
        a = A.dtype.type_code
        b = A.dtype.bits
        c = A.dtype.lanes
        d = A.ndim
        e = A.shape[0]
        f = A.shape[1]
        g = A.strides[0]
        h = A.strides[1]
        i = A.byte_offset
        j = A.elem_offset
        k = B.dtype.type_code
        l = B.dtype.bits
        return (a, b, c, d, e, f, g, h, i, j, k, l)

    @R.function
    def unknown(A: R.Tensor, axis: R.Prim("int64")):
        a = A.dtype.type_code
        b = A.dtype.bits
        c = A.dtype.lanes
        d = A.ndim
        e = A.shape[axis]
        f = A.strides[axis]
        i = A.byte_offset
        j = A.elem_offset
        return (a, b, c, d, e, f, i, j)
