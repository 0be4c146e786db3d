# Device checks inside an if branch and inside a nested function go too.
# PIPELINE: remove-device-asserts
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32"), flag: R.Prim("bool")) -> R.Tensor((4,), dtype="float32"):
        @R.function(pure=False)
        def check(v: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            t: R.Tensor((), dtype="float32") = R.sum(v, axis=None, keepdims=False)
            fin: R.Tensor((), dtype="bool") = R.isfinite(t)
            chk: R.Tuple = R.assert_op(fin, format=R.str("not finite"))
            return v

        if flag:
            s: R.Tensor((), dtype="float32") = R.sum(x, axis=None, keepdims=False)
            ok: R.Tensor((), dtype="bool") = R.greater(s, R.const(0.0, "float32"))
            chk2: R.Tuple = R.assert_op(ok, format=R.str("sum must be positive"))
            r: R.Tensor((4,), dtype="float32") = x
        else:
            r: R.Tensor((4,), dtype="float32") = check(x)
        return r


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32"), flag: R.Prim("bool")) -> R.Tensor((4,), dtype="float32"):
        @R.function(pure=False)
        def check(v: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            return v

        if flag:
            r: R.Tensor((4,), dtype="float32") = x
        else:
            r: R.Tensor((4,), dtype="float32") = check(x)
        return r
