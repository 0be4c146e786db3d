# VERIFY: symbolic var 'n' is used in function 'main' but not defined
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y: R.Tensor((n,), "float32") = R.add(x, x)
        return y
