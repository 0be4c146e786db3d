# Injective calls the pass leaves alone: take without an axis or in mode "nan", strided_slice
# with a symbolic bound, broadcast_to to a dim its operand does not have (after a reduction),
# and a group of views only (two reshapes launch no kernel).
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32"), v: R.Tensor((6,), dtype="float32"), idx: R.Tensor((2,), dtype="int64"), z: R.Tensor(("m", 6), dtype="float32")):
        m = T.int64()
        with R.dataflow():
            a: R.Tensor((6,), dtype="float32") = R.exp(v)
            t: R.Tensor((2,), dtype="float32") = R.take(a, idx)
            b: R.Tensor((4, 6), dtype="float32") = R.exp(x)
            t2: R.Tensor((4, 2), dtype="float32") = R.take(b, idx, axis=1, mode="nan")
            d: R.Tensor((m, 6), dtype="float32") = R.exp(z)
            ds = R.strided_slice(d, axes=[0], begin=[0], end=[m - 1])
            e: R.Tensor((1, 6), dtype="float32") = R.sum(x, axis=[0], keepdims=True)
            f: R.Tensor((1, 6), dtype="float32") = R.exp(e)
            g: R.Tensor((m, 6), dtype="float32") = R.broadcast_to(f, R.shape([m, 6]))
            h: R.Tensor((24,), dtype="float32") = R.reshape(x, R.shape([24]))
            i: R.Tensor((6, 4), dtype="float32") = R.reshape(h, R.shape([6, 4]))
            R.output(t, t2, ds, g, i)
        return (t, t2, ds, g, i)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32"), v: R.Tensor((6,), dtype="float32"), idx: R.Tensor((2,), dtype="int64"), z: R.Tensor(("m", 6), dtype="float32")) -> R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((4, 2), dtype="float32"), R.Tensor(("m - 1", 6), dtype="float32"), R.Tensor(("m", 6), dtype="float32"), R.Tensor((6, 4), dtype="float32")):
        with R.dataflow():
            a: R.Tensor((6,), dtype="float32") = R.exp(v)
            t: R.Tensor((2,), dtype="float32") = R.take(a, idx, axis=None, mode="fast")
            b: R.Tensor((4, 6), dtype="float32") = R.exp(x)
            t2: R.Tensor((4, 2), dtype="float32") = R.take(b, idx, axis=1, mode="nan")
            d: R.Tensor((m, 6), dtype="float32") = R.exp(z)
            ds: R.Tensor((m - 1, 6), dtype="float32") = R.strided_slice(d, (R.prim_value(0),), (R.prim_value(0),), (R.prim_value(m - 1),), assume_inbound=False)
            e: R.Tensor((1, 6), dtype="float32") = R.sum(x, axis=[0], keepdims=True)
            f: R.Tensor((1, 6), dtype="float32") = R.exp(e)
            g: R.Tensor((m, 6), dtype="float32") = R.broadcast_to(f, R.shape([m, 6]))
            h: R.Tensor((24,), dtype="float32") = R.reshape(x, R.shape([24]))
            i: R.Tensor((6, 4), dtype="float32") = R.reshape(h, R.shape([6, 4]))
            R.output(t, t2, ds, g, i)
        return (t, t2, ds, g, i)
