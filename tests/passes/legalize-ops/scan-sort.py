# sort/argsort pass axis and descending; cumsum axis and exclusive, an unset
# axis (scan of the flattening) as R.null_value(); its dtype is the output's.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        a = R.sort(x, axis=0, descending=True)
        b = R.argsort(x, dtype="int64")
        c = R.cumsum(x, axis=1, exclusive=True)
        d = R.cumsum(x, dtype="float64")
        return (a, b, c, d)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="int64"), R.Tensor((2, 3), dtype="float32"), R.Tensor((6,), dtype="float64")):
        a = R.call_dps_packed("graft.sort", (x, R.prim_value(0), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b = R.call_dps_packed("graft.argsort", (x, R.prim_value(-1), R.prim_value(T.bool(False))), out_sinfo=R.Tensor((2, 3), dtype="int64"))
        c = R.call_dps_packed("graft.cumsum", (x, R.prim_value(1), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        none: R.Object = R.null_value()
        d = R.call_dps_packed("graft.cumsum", (x, none, R.prim_value(T.bool(False))), out_sinfo=R.Tensor((6,), dtype="float64"))
        return (a, b, c, d)
