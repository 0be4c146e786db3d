# Unary, binary, comparison and ternary elementwise ops, with broadcasting,
# symbolic shapes, Prim operands and operator sugar.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Elementwise:
    @R.function
    def unary_float(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            a0 = R.abs(x)
            a1 = R.acos(x)
            a2 = R.acosh(x)
            a3 = R.asin(x)
            a4 = R.asinh(x)
            a5 = R.atan(x)
            a6 = R.atanh(x)
            a7 = R.ceil(x)
            a8 = R.cos(x)
            a9 = R.cosh(x)
            b0 = R.erf(x)
            b1 = R.exp(x)
            b2 = R.floor(x)
            b3 = R.log(x)
            b4 = R.negative(x)
            b5 = R.round(x)
            b6 = R.rsqrt(x)
            b7 = R.sigmoid(x)
            b8 = R.sign(x)
            b9 = R.sin(x)
            c0 = R.sinh(x)
            c1 = R.square(x)
            c2 = R.sqrt(x)
            c3 = R.tan(x)
            c4 = R.tanh(x)
            c5 = R.trunc(x)
            c6 = R.isfinite(x)
            c7 = R.isinf(x)
            c8 = R.isnan(x)
            R.output(c5)
        return c5

    @R.function
    def unary_int(x: R.Tensor(("n", 4), "int32"), b: R.Tensor((4,), "bool")) -> R.Tensor(("n", 4), "int32"):
        a = R.bitwise_not(x)
        c = R.logical_not(b)
        d = R.abs(x)
        return a

    @R.function
    def binary(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32"), z: R.Tensor((2, 1), "float32")) -> R.Tensor((2, 3), "float32"):
        a0 = R.add(x, y)
        a1 = R.subtract(x, z)
        a2 = R.multiply(y, x)
        a3 = R.divide(x, R.const(2.0, "float32"))
        a4 = R.floor_divide(x, y)
        a5 = R.power(x, z)
        a6 = R.mod(x, y)
        a7 = R.floor_mod(x, y)
        a8 = R.maximum(x, y)
        a9 = R.minimum(x, y)
        return a0

    @R.function
    def binary_int(x: R.Tensor((4,), "int32"), y: R.Tensor((4,), "int32"), p: R.Tensor((4,), "bool"), q: R.Tensor((4,), "bool")) -> R.Tensor((4,), "int32"):
        a0 = R.bitwise_and(x, y)
        a1 = R.bitwise_or(x, y)
        a2 = R.bitwise_xor(x, y)
        a3 = R.left_shift(x, y)
        a4 = R.right_shift(x, y)
        a5 = R.logical_and(p, q)
        a6 = R.logical_or(p, q)
        a7 = R.logical_xor(p, q)
        a8 = R.add(x, p)
        return a0

    @R.function
    def compare(x: R.Tensor(("n", 3), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor(("n", 3), "bool"):
        n = T.int64()
        a0 = R.equal(x, y)
        a1 = R.not_equal(x, y)
        a2 = R.less(x, y)
        a3 = R.less_equal(x, y)
        a4 = R.greater(x, y)
        a5 = R.greater_equal(x, y)
        return a0

    @R.function
    def ternary(c: R.Tensor((2, 3), "bool"), x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor((2, 3), "float32"):
        a = R.where(c, x, y)
        b = R.clip(x, 0, 6)
        d = R.clip(x, R.prim_value(T.float32(-1.5)), R.prim_value(T.float32(1.5)))
        e = R.astype(x, "float16")
        f = R.astype(x, dtype="int32")
        return a

    @R.function
    def prim_operands(p: R.Prim("int64"), q: R.Prim("int64"), x: R.Tensor((2,), "int64")) -> R.Prim("int64"):
        a = R.add(p, q)
        b = R.multiply(x, p)
        return a

    @R.function
    def sugar(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        a = x + y
        b = x - y
        c = x * y
        d = x / y
        e = x // y
        f = x ** y
        g = -x
        h = x % y
        i = x < y
        j = x > y
        k = x <= y
        l = x >= y
        m = x.astype("float16")
        return a

    @R.function
    def symbolic_broadcast(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor(("m",), "float32"), z: R.Tensor((1, "m"), "float32")) -> R.Tensor(("n", "m"), "float32"):
        a = R.add(x, y)
        b = R.add(x, z)
        return a
