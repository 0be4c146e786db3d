# A kill is impure: a pure function without relax.force_pure cannot get one.
# PIPELINE: kill-after-last-use
# EXPECT-ERROR: pass kill-after-last-use needs function 'main' to be impure or relax.force_pure (run remove-purity-checking first)
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        b = R.add(a, a)
        return b
