# Injective ops obey the group boundaries: a take before an impure call, a permute_dims before a
# host read and a reshape in an if branch never join a group across them.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 4), dtype="float32"), idx: R.Tensor((2,), dtype="int64"), c: R.Tensor((), dtype="bool")) -> R.Tensor((8,), dtype="float32"):
        t: R.Tensor((2, 4), dtype="float32") = R.take(x, idx, axis=0)
        u: R.Tensor((2, 4), dtype="float32") = R.exp(t)
        _: R.Object = R.print(u, format="{}")
        v: R.Tensor((2, 4), dtype="float32") = R.sin(u)
        if c:
            r: R.Tensor((8,), dtype="float32") = R.reshape(v, R.shape([8]))
            s: R.Tensor((8,), dtype="float32") = R.abs(r)
            y: R.Tensor((8,), dtype="float32") = R.negative(s)
        else:
            y: R.Tensor((8,), dtype="float32") = R.zeros(R.shape([8]), dtype="float32")
        return y


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_reshape_abs_negative(v: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            r: R.Tensor((8,), dtype="float32") = R.reshape(v, R.shape([8]))
            s: R.Tensor((8,), dtype="float32") = R.abs(r)
            y_then: R.Tensor((8,), dtype="float32") = R.negative(s)
            R.output(y_then)
        return y_then

    @R.function(private=True)
    def fused_take_exp(x: R.Tensor((4, 4), dtype="float32"), idx: R.Tensor((2,), dtype="int64")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            t: R.Tensor((2, 4), dtype="float32") = R.take(x, idx, axis=0, mode="fast")
            u: R.Tensor((2, 4), dtype="float32") = R.exp(t)
            R.output(u)
        return u

    @R.function(pure=False)
    def main(x: R.Tensor((4, 4), dtype="float32"), idx: R.Tensor((2,), dtype="int64"), c: R.Tensor((), dtype="bool")) -> R.Tensor((8,), dtype="float32"):
        u = R.call_dps_packed("graft.fused.fused_take_exp", (x, idx), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        __1: R.Object = R.print(u, format=R.str("{}"))
        v: R.Tensor((2, 4), dtype="float32") = R.sin(u)
        if c:
            y_then = R.call_dps_packed("graft.fused.fused_reshape_abs_negative", (v,), out_sinfo=R.Tensor((8,), dtype="float32"))
            y: R.Tensor((8,), dtype="float32") = y_then
        else:
            y_else: R.Tensor((8,), dtype="float32") = R.zeros(R.shape([8]), dtype="float32")
            y: R.Tensor((8,), dtype="float32") = y_else
        return y
