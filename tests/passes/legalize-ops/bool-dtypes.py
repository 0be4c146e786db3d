# The dtypes the kernels' rules take lower: logical ops on bool (their
# output is bool, as TVM infers), a bool operand mixed into an integer add,
# argmax of bool and a bool arange.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(p: R.Tensor((2, 3), "bool"), x: R.Tensor((2, 3), "int32")):
        a = R.logical_and(p, p)
        b = R.logical_not(a)
        c = R.add(x, p)
        d = R.argmax(p, axis=1)
        e = R.arange(0, 3, 1, dtype="bool")
        return (b, c, d, e)


@I.ir_module
class Expected:
    @R.function
    def main(p: R.Tensor((2, 3), dtype="bool"), x: R.Tensor((2, 3), dtype="int32")) -> R.Tuple(R.Tensor((2, 3), dtype="bool"), R.Tensor((2, 3), dtype="int32"), R.Tensor((2,), dtype="int64"), R.Tensor((3,), dtype="bool")):
        a = R.call_dps_packed("graft.logical_and", (p, p), out_sinfo=R.Tensor((2, 3), dtype="bool"))
        b = R.call_dps_packed("graft.logical_not", (a,), out_sinfo=R.Tensor((2, 3), dtype="bool"))
        c = R.call_dps_packed("graft.add", (x, p), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        d = R.call_dps_packed("graft.argmax", (p, R.prim_value(1), R.prim_value(T.bool(False))), out_sinfo=R.Tensor((2,), dtype="int64"))
        e = R.call_dps_packed("graft.arange", (R.prim_value(0), R.prim_value(1)), out_sinfo=R.Tensor((3,), dtype="bool"))
        return (b, c, d, e)
