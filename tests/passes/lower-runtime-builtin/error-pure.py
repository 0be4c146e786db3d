# R.reshape becomes an (impure) packed call, so a pure function without
# relax.force_pure is refused before anything changes.
# PIPELINE: lower-runtime-builtin
# EXPECT-ERROR: pass lower-runtime-builtin needs every function with R.reshape to be impure or relax.force_pure (run remove-purity-checking first)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(A: R.Tensor([16], "float32")) -> R.Tensor([4, 4], "float32"):
        r = R.reshape(A, R.shape([4, 4]))
        return r
