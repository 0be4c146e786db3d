# Kernels take tensors: an R.Prim operand is refused, naming the op and the
# binding.
# PIPELINE: legalize-ops
# EXPECT-ERROR: pass legalize-ops needs tensor operands: R.add in binding 'y' of function 'main' has an operand of struct info R.Prim(value=T.float32(1.0)) (kernels take tensors only)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, R.prim_value(T.float32(1)))
        return y
