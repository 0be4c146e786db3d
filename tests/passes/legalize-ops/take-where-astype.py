# take passes axis and mode; where takes three inputs; astype's target dtype
# is the output's (no attribute); clip's bounds are its prim-value arguments.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), i: R.Tensor((2,), "int64"), m: R.Tensor((4, 3), "bool")):
        a = R.take(x, i, axis=0)
        b = R.take(x, i, axis=1, mode="clip")
        c = R.where(m, x, R.const(0, "float32"))
        d = R.astype(x, "int32")
        e = R.clip(x, 0, 6)
        return (a, b, c, d, e)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32"), i: R.Tensor((2,), dtype="int64"), m: R.Tensor((4, 3), dtype="bool")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((4, 2), dtype="float32"), R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="int32"), R.Tensor((4, 3), dtype="float32")):
        a = R.call_dps_packed("graft.take", (x, i, R.prim_value(0), R.str("fast")), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b = R.call_dps_packed("graft.take", (x, i, R.prim_value(1), R.str("clip")), out_sinfo=R.Tensor((4, 2), dtype="float32"))
        c = R.call_dps_packed("graft.where", (m, x, R.const(0.0, "float32")), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        d = R.call_dps_packed("graft.astype", (x,), out_sinfo=R.Tensor((4, 3), dtype="int32"))
        e = R.call_dps_packed("graft.clip", (x, R.prim_value(0), R.prim_value(6)), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        return (a, b, c, d, e)
