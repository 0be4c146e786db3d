# Calls the pass leaves alone: attributes other than astype's dtype (expand_dims, clip's bounds,
# full_like's fill value), shape arguments (broadcast_to), injective and reduction ops, a tensor
# of unknown dtype.
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
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), u: R.Tensor((4, 8))) -> R.Tensor((4, 8)):
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.clip(x, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            b: R.Tensor((4, 1, 8), dtype="float32") = R.expand_dims(a, axis=[1])
            c: R.Tensor((4, 8), dtype="float32") = R.reshape(b, R.shape([4, 8]))
            d: R.Tensor((4, 8), dtype="float32") = R.full_like(c, R.const(1.0, "float32"), dtype="void")
            e: R.Tensor((2, 4, 8), dtype="float32") = R.broadcast_to(d, R.shape([2, 4, 8]))
            f: R.Tensor((4, 8), dtype="float32") = R.sum(e, axis=[0], keepdims=False)
            g: R.Tensor((4, 8)) = R.add(u, u)
            h: R.Tensor((4, 8)) = R.exp(g)
            R.output(f, h)
        return h
