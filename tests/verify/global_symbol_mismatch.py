# VERIFY: function 'main' has global_symbol 'foo' but is named 'main'
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"global_symbol": "foo"})
        return x
