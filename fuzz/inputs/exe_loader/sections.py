# Seed sources of the exe_loader fuzz target (docs/fuzzing.md): each module
# builds with `graft build` into an executable that exercises one part of the
# format: constants of every dtype, prim values, fused kernel programs (elementwise, and
# injective ops with attributes and a second output), scalar
# programs (shape_func, compute_symbolic_expr), parameter tables with symbolic
# dims, if/else, calls between functions and tuples.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Constants:
    @R.function
    def main() -> R.Tuple(R.Tensor((2,), "float64"), R.Tensor((2,), "float16"), R.Tensor((2,), "bfloat16"), R.Tensor((3,), "bool"), R.Tensor((2,), "int8"), R.Tensor((2,), "uint8"), R.Tensor((), "int64"), R.Tensor((2,), "float32"), R.Tensor((2,), "int32")):
        return (R.const([1.5, -2.25], "float64"), R.const([0.5, 65504.0], "float16"), R.const([1.0, -3.0], "bfloat16"), R.const([True, False, True], "bool"), R.const([-128, 127], "int8"), R.const([0, 255], "uint8"), R.const(1152921504606846976, "int64"), R.const([0.25, -8.0], "float32"), R.const([-7, 100000], "int32"))


@I.ir_module
class PrimValues:
    @R.function
    def main(f: R.Prim("float64"), s: R.Shape(["n", 3])) -> R.Tuple(R.Prim("int64"), R.Prim("float64"), R.Prim("bool"), R.Prim("int64"), R.Shape([2, 3]), R.Object, R.Object, R.Prim(value=T.float64(0.5))):
        n = T.int64()
        return (R.prim_value(n * 2 + 1), f, R.prim_value(T.bool(True)), R.prim_value(T.int64(-36028797018963968)), R.shape([2, 3]), R.str("hi"), R.dtype("bfloat16"), R.prim_value(T.float64(0.5)))


@I.ir_module
class Fused:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        with R.dataflow():
            a = R.add(x, y)
            b = R.multiply(a, R.const(2.0, "float32"))
            c = R.nn.relu(b)
            d = R.exp(c)
            e = R.sum(d, axis=[1], keepdims=True)
            f = R.divide(d, e)
            R.output(f)
        return f


@I.ir_module
class FusedInjective:
    @R.function
    def main(x: R.Tensor(("n", 4, 6), "float32"), y: R.Tensor((6,), "float32"), z: R.Tensor(("n", 6, 4), "float32"), idx: R.Tensor((3,), "int64")) -> R.Tuple(R.Tensor(("n", 6, 4), "float32"), R.Tensor((1, "n", 2), "float32"), R.Tensor((1, "n", 2), "float32")):
        n = T.int64()
        with R.dataflow():
            a = R.add(x, y)
            b = R.permute_dims(a, axes=[0, 2, 1])
            c = R.exp(b)
            d = R.concat((c, z), axis=2)
            e = R.reshape(d, (n, 48))
            f = R.take(e, idx, axis=1, mode="clip")
            g = R.clip(f, 0.0, 2.0)
            h = R.strided_slice(g, axes=[1], begin=[2], end=[0], strides=[-1])
            k = R.expand_dims(h, axis=[0])
            m = R.multiply(k, R.const(3.0, "float32"))
            s = R.sin(m)
            u = R.cos(s)
            R.output(c, s, u)
        return (c, s, u)


@I.ir_module
class Control:
    @R.function
    def helper(x: R.Tensor((2,), "float32"), k: R.Prim("int64")) -> R.Tuple(R.Tensor((2,), "float32"), R.Prim("int64")):
        return (R.add(x, x), k)

    @R.function(pure=False)
    def main(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            t = Control.helper(x, R.prim_value(3))
            y = t[0]
        else:
            y = R.multiply(x, x)
        R.print(y, format="y={}")
        R.assert_op(R.const(True, "bool"), y, format="never {}")
        return y
