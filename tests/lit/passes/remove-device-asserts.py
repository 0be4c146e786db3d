# A check on a device tensor goes, with the math that only fed it (the sum,
# the comparison and the format argument).
# RUN: %graft opt %s -p remove-device-asserts | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 14), dtype="float32")) -> R.Tensor((4, 14), dtype="float32"):
        d: R.Tensor((4,), dtype="float32") = R.sum(x, axis=[1], keepdims=False)
        lo: R.Tensor((), dtype="float32") = R.min(d, axis=None, keepdims=False)
        ok: R.Tensor((), dtype="bool") = R.greater(lo, R.const(0.0, "float32"))
        chk: R.Tuple = R.assert_op(ok, lo, format=R.str("scale_tril must be positive, got {}"))
        y: R.Tensor((4, 14), dtype="float32") = R.exp(x)
        return y

# CHECK-LABEL: def main(
# CHECK-NOT: R.assert_op
# CHECK-NOT: R.sum
# CHECK: y: R.Tensor((4, 14), dtype="float32") = R.exp(x)
# CHECK-NEXT: return y
