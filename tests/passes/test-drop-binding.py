# verify-each must catch a pass that breaks the IR and name it.
# PIPELINE: test-drop-binding
# EXPECT-ERROR: IR is not well-formed after pass 'test-drop-binding'
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        z = R.multiply(y, x)
        return z
