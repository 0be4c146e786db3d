# Calls inside if branches and inside a nested function are lowered where
# they are.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        @R.function
        def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            w = R.negative(z)
            return w

        if c:
            r = R.sqrt(x)
        else:
            r = inner(x)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Prim("bool")) -> R.Tensor((4,), dtype="float32"):
        @R.function
        def inner(z: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            w = R.call_dps_packed("graft.negative", (z,), out_sinfo=R.Tensor((4,), dtype="float32"))
            return w
        if c:
            r_then = R.call_dps_packed("graft.sqrt", (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            r: R.Tensor((4,), dtype="float32") = r_then
        else:
            r_else: R.Tensor((4,), dtype="float32") = inner(x)
            r: R.Tensor((4,), dtype="float32") = r_else
        return r
