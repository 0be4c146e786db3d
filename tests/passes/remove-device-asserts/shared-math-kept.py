# Math that also feeds the result stays; only the check and the comparison go.
# PIPELINE: remove-device-asserts
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((), dtype="float32"):
        s: R.Tensor((), dtype="float32") = R.sum(x, axis=None, keepdims=False)
        ok: R.Tensor((), dtype="bool") = R.greater(s, R.const(0.0, "float32"))
        chk: R.Tuple = R.assert_op(ok, format=R.str("sum must be positive"))
        return s


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((), dtype="float32"):
        s: R.Tensor((), dtype="float32") = R.sum(x, axis=None, keepdims=False)
        return s
