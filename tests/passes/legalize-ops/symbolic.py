# Symbolic shapes: out_sinfo keeps the symbolic output shape, and slice
# bounds written with a shape var become an R.shape over it.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor((1, 4), "float32")):
        n = T.int64()
        a = R.add(x, y)
        b = R.sum(a, axis=[0])
        c = R.reshape(a, (n * 4,))
        d = R.strided_slice(a, axes=[0], begin=[1], end=[n])
        return (b, c, d)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((1, 4), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor(("n * 4",), dtype="float32"), R.Tensor(("n - 1", 4), dtype="float32")):
        a = R.call_dps_packed("graft.add", (x, y), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        b = R.call_dps_packed("graft.sum", (a, R.shape([0]), R.prim_value(T.bool(False))), out_sinfo=R.Tensor((4,), dtype="float32"))
        c = R.call_dps_packed("graft.reshape", (a,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
        none: R.Object = R.null_value()
        d = R.call_dps_packed("graft.strided_slice", (a, R.shape([0]), R.shape([1]), R.shape([n]), none), out_sinfo=R.Tensor((n - 1, 4), dtype="float32"))
        return (b, c, d)
