# TVM test_invalid_tir_var_lower_bound: bounds must be integers.
# PIPELINE: static-plan-block-memory
# EXPECT-ERROR: pass static-plan-block-memory needs integer values in tir_var_lower_bound; 'n' is not an integer
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, "n"), "float32")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        R.func_attr({"tir_var_lower_bound": {"n": [4]}, "relax.force_pure": True})
        return x
