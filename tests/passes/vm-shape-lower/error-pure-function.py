# Found by graft difftest: alone, the pass put impure checks into a pure
# function, which verify-each then rejected. It states the precondition now.
# PIPELINE: vm-shape-lower
# EXPECT-ERROR: pass vm-shape-lower needs function 'main' to be impure or relax.force_pure (run remove-purity-checking first)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        return x
