# A pure function without relax.force_pure cannot hold the impure calls the
# rewrite emits (remove-purity-checking must run first).
# PIPELINE: call-tir-rewrite
# EXPECT-ERROR: pass call-tir-rewrite needs every function with R.call_dps_packed to be impure or relax.force_pure (run remove-purity-checking first)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_dps_packed("test.copy", (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
