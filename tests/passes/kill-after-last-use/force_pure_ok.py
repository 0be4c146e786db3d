# A pure function with relax.force_pure may get kills (what
# remove-purity-checking leaves); shapes, prim values and constants never
# get one.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        R.func_attr({"relax.force_pure": True})
        s = R.shape([4])
        n = R.prim_value(4)
        a = R.add(x, x)
        b = R.reshape(a, s)
        c = R.call_pure_packed("scale", b, n, sinfo_args=(R.Tensor((4,), "float32"),))
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        R.func_attr({"relax.force_pure": True})
        s = R.shape([4])
        n = R.prim_value(4)
        a = R.add(x, x)
        b = R.reshape(a, s)
        _ = R.memory.kill_tensor(a)
        c = R.call_pure_packed("scale", b, n, sinfo_args=(R.Tensor((4,), "float32"),))
        _ = R.memory.kill_tensor(b)
        return c
