# VERIFY: function 'main' has relax.force_pure=True but is not pure
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        return x
