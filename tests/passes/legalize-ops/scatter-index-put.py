# scatter_elements passes axis, reduction and include_self (always true: the
# op has no such attribute); index_put takes data, every index tensor, then
# values, with accumulate; integer index_tensor stays a DPS kernel.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), i: R.Tensor((2, 3), "int64"), u: R.Tensor((2, 3), "float32"), r: R.Tensor((2,), "int64"), v: R.Tensor((2,), "float32")):
        a = R.scatter_elements(x, i, u, axis=0, reduction="add")
        b = R.index_put(x, (r, r), v, accumulate=True)
        c = R.index_tensor(x, (r,))
        return (a, b, c)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32"), i: R.Tensor((2, 3), dtype="int64"), u: R.Tensor((2, 3), dtype="float32"), r: R.Tensor((2,), dtype="int64"), v: R.Tensor((2,), dtype="float32")) -> R.Tuple(R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        a = R.call_dps_packed("graft.scatter_elements", (x, i, u, R.prim_value(0), R.str("add"), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        b = R.call_dps_packed("graft.index_put", (x, r, r, v, R.prim_value(T.bool(True))), out_sinfo=R.Tensor((4, 3), dtype="float32"))
        c = R.call_dps_packed("graft.index_tensor", (x, r), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        return (a, b, c)
