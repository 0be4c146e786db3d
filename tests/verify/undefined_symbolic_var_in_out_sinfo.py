# VERIFY: symbolic var 'm' is used in function 'main' but not defined
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor(ndim=1, dtype="float32"):
        m = T.int64()
        y = R.call_dps_packed("my_func", (x,), out_sinfo=R.Tensor((m,), "float32"))
        return y
