# strided_slice with constant bounds, expand_dims, squeeze, broadcast_to to a constant shape and
# clip with constant bounds join the group; their attributes become the program's.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8, 1, 6), dtype="int32"), y: R.Tensor((3, 4, 3), dtype="int32")) -> R.Tensor((3, 4, 3), dtype="int32"):
        with R.dataflow():
            s: R.Tensor((4, 1, 3), dtype="int32") = R.strided_slice(x, axes=[0, 2], begin=[0, 5], end=[8, 0], strides=[2, -2])
            q: R.Tensor((4, 3), dtype="int32") = R.squeeze(s, axis=[1])
            e: R.Tensor((1, 4, 3), dtype="int32") = R.expand_dims(q, axis=[0])
            b: R.Tensor((3, 4, 3), dtype="int32") = R.broadcast_to(e, R.shape([3, 4, 3]))
            a: R.Tensor((3, 4, 3), dtype="int32") = R.add(b, y)
            c: R.Tensor((3, 4, 3), dtype="int32") = R.clip(a, R.prim_value(-5), R.prim_value(5))
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_strided_slice_squeeze_expand_dims_broadcast_to_add_clip(x: R.Tensor((8, 1, 6), dtype="int32"), y: R.Tensor((3, 4, 3), dtype="int32")) -> R.Tensor((3, 4, 3), dtype="int32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            s: R.Tensor((4, 1, 3), dtype="int32") = R.strided_slice(x, (R.prim_value(0), R.prim_value(2)), (R.prim_value(0), R.prim_value(5)), (R.prim_value(8), R.prim_value(0)), (R.prim_value(2), R.prim_value(-2)), assume_inbound=False)
            q: R.Tensor((4, 3), dtype="int32") = R.squeeze(s, axis=[1])
            e: R.Tensor((1, 4, 3), dtype="int32") = R.expand_dims(q, axis=[0])
            b: R.Tensor((3, 4, 3), dtype="int32") = R.broadcast_to(e, R.shape([3, 4, 3]))
            a: R.Tensor((3, 4, 3), dtype="int32") = R.add(b, y)
            c: R.Tensor((3, 4, 3), dtype="int32") = R.clip(a, R.prim_value(-5), R.prim_value(5))
            R.output(c)
        return c

    @R.function
    def main(x: R.Tensor((8, 1, 6), dtype="int32"), y: R.Tensor((3, 4, 3), dtype="int32")) -> R.Tensor((3, 4, 3), dtype="int32"):
        with R.dataflow():
            c = R.call_dps_packed("graft.fused.fused_strided_slice_squeeze_expand_dims_broadcast_to_add_clip", (x, y), out_sinfo=R.Tensor((3, 4, 3), dtype="int32"))
            R.output(c)
        return c
