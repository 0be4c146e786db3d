# T.ceildiv and `n.astype(dtype)` in symbolic expressions, as TVM's Python
# builds them: ceildiv(a, b) is (a + b - 1) // b, astype a cast unless the
# dtype is already n's. Here the element size read with A.dtype.bits sizes a
# byte offset.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def last_row(A: R.Tensor(["rows", "cols"])) -> R.Tensor(["cols"]):
        rows = T.int64()
        cols = T.int64()
        bits = T.uint8()
        _ = R.match_cast(A.dtype.bits, R.Prim(value=bits))
        row = R.memory.view(
            A,
            [cols],
            relative_byte_offset=(rows - 1) * cols * T.ceildiv(bits.astype("int64"), 8),
        )
        return row

    @R.function
    def same_dtype(x: R.Tensor(["n"], "float32")) -> R.Prim("int64"):
        n = T.int64()
        s = R.prim_value(T.ceildiv(n.astype("int64"), 4))
        return s
