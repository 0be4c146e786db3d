# VERIFY: symbolic var 'K' is used in function 'main' but not defined
# K appears only inside an expression, so no parameter defines it.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(
        A: R.Tensor(("M", "K + 1"), "float32"), B: R.Tensor(("M",), "float32")
    ) -> R.Tensor(("M",), "float32"):
        return B
