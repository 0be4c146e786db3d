# Checks on host values (a shape relation as R.prim_value) stay.
# PIPELINE: remove-device-asserts
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        chk: R.Tuple = R.assert_op(R.prim_value(n >= 1), format=R.str("x must not be empty"))
        return x


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        chk: R.Tuple = R.assert_op(R.prim_value(n >= 1), format=R.str("x must not be empty"))
        return x
