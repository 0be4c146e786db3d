# Reductions pass axis as an R.shape and keepdims as a bool prim value; an
# unset axis (reduce everything) is a bound R.null_value(), as is argmax's.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32")):
        a = R.sum(x, axis=[1, -1], keepdims=True)
        b = R.mean(x)
        c = R.argmax(x, axis=1)
        d = R.argmin(x)
        e = R.variance(x, axis=[0])
        return (a, b, c, d, e)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tuple(R.Tensor((2, 1, 1), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((2, 4), dtype="int64"), R.Tensor((), dtype="int64"), R.Tensor((3, 4), dtype="float32")):
        a = R.call_dps_packed("graft.sum", (x, R.shape([1, -1]), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((2, 1, 1), dtype="float32"))
        none: R.Object = R.null_value()
        b = R.call_dps_packed("graft.mean", (x, none, R.prim_value(T.bool(False))), out_sinfo=R.Tensor((), dtype="float32"))
        c = R.call_dps_packed("graft.argmax", (x, R.prim_value(1), R.prim_value(T.bool(False))), out_sinfo=R.Tensor((2, 4), dtype="int64"))
        none_1: R.Object = R.null_value()
        d = R.call_dps_packed("graft.argmin", (x, none_1, R.prim_value(T.bool(False))), out_sinfo=R.Tensor((), dtype="int64"))
        e = R.call_dps_packed("graft.variance", (x, R.shape([0]), R.prim_value(T.bool(False))), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        return (a, b, c, d, e)
