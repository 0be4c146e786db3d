# reshape, permute_dims, strided_slice and concat: the output shape comes
# from out_sinfo; axes and slice bounds are R.shape lists (negative values
# kept), an unset permutation is R.null_value(); concat takes each tensor of
# its tuple as an input.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32"), y: R.Tensor((2, 3, 4), "float32")):
        a = R.reshape(x, (6, 4))
        b = R.permute_dims(x, axes=[2, 0, 1])
        c = R.permute_dims(x)
        d = R.strided_slice(x, axes=[1, 2], begin=[0, -1], end=[2, 0], strides=[1, -1])
        e = R.concat((x, y), axis=1)
        f = R.flatten(x)
        g = R.expand_dims(x, axis=[0])
        h = R.squeeze(g)
        return (a, b, c, d, e, f, h)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tuple(R.Tensor((6, 4), dtype="float32"), R.Tensor((4, 2, 3), dtype="float32"), R.Tensor((4, 3, 2), dtype="float32"), R.Tensor((2, 2, 3), dtype="float32"), R.Tensor((2, 6, 4), dtype="float32"), R.Tensor((24,), dtype="float32"), R.Tensor((2, 3, 4), dtype="float32")):
        a = R.call_dps_packed("graft.reshape", (x,), out_sinfo=R.Tensor((6, 4), dtype="float32"))
        b = R.call_dps_packed("graft.permute_dims", (x, R.shape([2, 0, 1])), out_sinfo=R.Tensor((4, 2, 3), dtype="float32"))
        none: R.Object = R.null_value()
        c = R.call_dps_packed("graft.permute_dims", (x, none), out_sinfo=R.Tensor((4, 3, 2), dtype="float32"))
        d = R.call_dps_packed("graft.strided_slice", (x, R.shape([1, 2]), R.shape([0, -1]), R.shape([2, 0]), R.shape([1, -1])), out_sinfo=R.Tensor((2, 2, 3), dtype="float32"))
        e = R.call_dps_packed("graft.concat", (x, y, R.prim_value(1)), out_sinfo=R.Tensor((2, 6, 4), dtype="float32"))
        f = R.call_dps_packed("graft.flatten", (x,), out_sinfo=R.Tensor((24,), dtype="float32"))
        g = R.call_dps_packed("graft.expand_dims", (x, R.shape([0])), out_sinfo=R.Tensor((1, 2, 3, 4), dtype="float32"))
        none_1: R.Object = R.null_value()
        h = R.call_dps_packed("graft.squeeze", (g, none_1), out_sinfo=R.Tensor((2, 3, 4), dtype="float32"))
        return (a, b, c, d, e, f, h)
