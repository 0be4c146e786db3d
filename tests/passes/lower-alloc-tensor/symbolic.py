# v0.23: the byte count starts at the element size and multiplies each dim
# left to right, folding only constants: 4 * m * n for float32 (m, n), and a
# bool element counts one byte.
# PIPELINE: lower-alloc-tensor
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        m = T.int64()
        n = T.int64()
        a = R.builtin.alloc_tensor(R.shape([m, n]), "float32", 0)
        b = R.builtin.alloc_tensor(R.shape([2, m, 3]), "bool", 0)
        return a


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        m = T.int64()
        n = T.int64()
        s0 = R.memory.alloc_storage(R.shape([4 * m * n]), 0, "global", "uint8")
        a = R.memory.alloc_tensor(s0, 0, R.shape([m, n]), "float32", 0)
        s1 = R.memory.alloc_storage(R.shape([2 * m * 3]), 0, "global", "uint8")
        b = R.memory.alloc_tensor(s1, 0, R.shape([2, m, 3]), "bool", 0)
        return a
