# Every R.print statement goes; the function stays impure-capable but unchanged otherwise.
# RUN: %graft opt %s -p test-remove-print | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="debug: x")
        y = R.add(x, x)
        R.print(y, format="trace: y")
        return y

# CHECK-LABEL: def main(
# CHECK-NOT: R.print
# CHECK: y: R.Tensor((4,), dtype="float32") = R.add(x, x)
# CHECK-NOT: R.print
# CHECK: return y
