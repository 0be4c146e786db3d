# unique's output size depends on data: it becomes a graft.host.unique
# packed call taking x, then sorted, return_index, return_inverse,
# return_counts and axis (R.null_value() when unset), in the host kernel's
# attribute order. It returns the values alone, or a tuple when a return
# flag asks for more (the runtime sizes every output from one count).
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), y: R.Tensor((6,), "int32")):
        with R.dataflow():
            a = R.unique(y)
            b = R.unique(x, sorted=False, return_index=True, return_inverse=True, return_counts=True)
            c = R.unique(x, axis=-1, return_counts=True)
            d = b[2]
            R.output(a, c, d)
        return (a, c, d)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4, 3), dtype="float32"), y: R.Tensor((6,), dtype="int32")) -> R.Tuple(R.Tensor(dtype="int32", ndim=1), R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="int64", ndim=1)), R.Tensor(dtype="int64", ndim=1)):
        with R.dataflow():
            none: R.Object = R.null_value()
            a: R.Tensor(dtype="int32", ndim=1) = R.call_pure_packed("graft.host.unique", y, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(0), none, sinfo_args=(R.Tensor(dtype="int32", ndim=1),))
            none_1: R.Object = R.null_value()
            b: R.Tuple(R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.call_pure_packed("graft.host.unique", x, R.prim_value(0), R.prim_value(1), R.prim_value(1), R.prim_value(1), none_1, sinfo_args=(R.Tuple(R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)),))
            c: R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="int64", ndim=1)) = R.call_pure_packed("graft.host.unique", x, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(1), R.prim_value(-1), sinfo_args=(R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="int64", ndim=1)),))
            d: R.Tensor(dtype="int64", ndim=1) = b[2]
            R.output(a, c, d)
        return (a, c, d)
