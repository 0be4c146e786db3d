# Calls inside if branches and inside a nested (force_pure) function are
# rewritten where they are (the branch keeps its own binding of the output).
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})

        @R.function
        def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"relax.force_pure": True})
            w = R.call_dps_packed("test.neg", (z,), out_sinfo=R.Tensor((4,), "float32"))
            return w

        if c:
            r = R.call_dps_packed("test.copy", (x,), out_sinfo=R.Tensor((4,), "float32"))
        else:
            r = inner(x)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})

        @R.function
        def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"relax.force_pure": True})
            a1 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
            _ = R.call_packed("test.neg", z, a1)
            w = a1
            return w

        if c:
            a0 = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
            _ = R.call_packed("test.copy", x, a0)
            r_then = a0
            r = r_then
        else:
            r = inner(x)
        return r
