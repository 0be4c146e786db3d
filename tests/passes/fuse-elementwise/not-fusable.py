# Calls the pass leaves alone: creation ops (full_like), reductions (sum), a broadcast_to whose
# only reader is a reduction (a group of one), and tensors of unknown dtype. clip's constant
# bounds, expand_dims and reshape are fused (their attributes are program attributes).
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), u: R.Tensor((4, 8))) -> R.Tensor((4, 8)):
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.clip(x, 0.0, 1.0)
            b: R.Tensor((4, 1, 8), dtype="float32") = R.expand_dims(a, axis=[1])
            c: R.Tensor((4, 8), dtype="float32") = R.reshape(b, (4, 8))
            d: R.Tensor((4, 8), dtype="float32") = R.full_like(c, R.const(1.0, "float32"))
            e: R.Tensor((2, 4, 8), dtype="float32") = R.broadcast_to(d, (2, 4, 8))
            f: R.Tensor((4, 8), dtype="float32") = R.sum(e, axis=[0])
            g: R.Tensor((4, 8)) = R.add(u, u)
            h: R.Tensor((4, 8)) = R.exp(g)
            R.output(f, h)
        return h


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_clip_expand_dims_reshape(x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.clip(x, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            b: R.Tensor((4, 1, 8), dtype="float32") = R.expand_dims(a, axis=[1])
            c: R.Tensor((4, 8), dtype="float32") = R.reshape(b, R.shape([4, 8]))
            R.output(c)
        return c

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), u: R.Tensor((4, 8))) -> R.Tensor((4, 8)):
        with R.dataflow():
            c = R.call_dps_packed("graft.fused.fused_clip_expand_dims_reshape", (x,), out_sinfo=R.Tensor((4, 8), dtype="float32"))
            d: R.Tensor((4, 8), dtype="float32") = R.full_like(c, R.const(1.0, "float32"), dtype="void")
            e: R.Tensor((2, 4, 8), dtype="float32") = R.broadcast_to(d, R.shape([2, 4, 8]))
            f: R.Tensor((4, 8), dtype="float32") = R.sum(e, axis=[0], keepdims=False)
            g: R.Tensor((4, 8)) = R.add(u, u)
            h: R.Tensor((4, 8)) = R.exp(g)
            R.output(f, h)
        return h
