# Creation ops have no tensor input but fill_value; arange passes start and
# step (its length is the output's); tril's k is its prim-value argument.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((3, 3), "float32")):
        a = R.zeros((2, 3), "int32")
        b = R.full((2, 3), R.const(1.5, "float32"), "float32")
        c = R.arange(1, 10, 2)
        d = R.ones_like(x)
        e = R.full_like(x, R.const(2, "int32"))
        f = R.tril(x, 1)
        return (a, b, c, d, e, f)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((3, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((5,), dtype="int64"), R.Tensor((3, 3), dtype="float32"), R.Tensor((3, 3), dtype="float32"), R.Tensor((3, 3), dtype="float32")):
        a = R.call_dps_packed("graft.zeros", R.tuple(), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        b = R.call_dps_packed("graft.full", (R.const(1.5, "float32"),), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        c = R.call_dps_packed("graft.arange", (R.prim_value(1), R.prim_value(2)), out_sinfo=R.Tensor((5,), dtype="int64"))
        d = R.call_dps_packed("graft.ones_like", (x,), out_sinfo=R.Tensor((3, 3), dtype="float32"))
        e = R.call_dps_packed("graft.full_like", (x, R.const(2, "int32")), out_sinfo=R.Tensor((3, 3), dtype="float32"))
        f = R.call_dps_packed("graft.tril", (x, R.prim_value(1)), out_sinfo=R.Tensor((3, 3), dtype="float32"))
        return (a, b, c, d, e, f)
