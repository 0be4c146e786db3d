# R.const in every dtype, scalars and nested lists, special floats, and the
# Python literals that become constants.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Constants:
    @R.function
    def scalars() -> R.Tuple:
        a = R.const(1)
        b = R.const(1.5)
        c = R.const(True)
        d = R.const(False, "bool")
        e = R.const(7, "int8")
        f = R.const(-7, "int16")
        g = R.const(123456, "int32")
        h = R.const(-9223372036854775808, "int64")
        i = R.const(200, "uint8")
        j = R.const(65535, "uint16")
        k = R.const(4000000000, "uint32")
        l = R.const(0.5, "float16")
        m = R.const(1.25, "bfloat16")
        n = R.const(0.1, "float32")
        o = R.const(0.1, "float64")
        p = R.const(3, "float32")
        q = R.const(1e-5, "float32")
        r = R.const(3.4028234663852886e38, "float32")
        s = R.const(-1e300, "float64")
        return R.tuple()

    @R.function
    def special_floats() -> R.Tuple:
        a = R.const(float("inf"), "float32")
        b = R.const(float("-inf"), "float64")
        c = R.const(float("nan"), "float32")
        d = R.const(-0.0, "float32")
        e = R.const(0.0, "float16")
        f = R.const([1.0, float("inf"), float("-inf"), float("nan"), -0.0], "float32")
        return R.tuple()

    @R.function
    def tensors() -> R.Tuple:
        a = R.const([1, 2, 3], "int32")
        b = R.const([[1.5, 2.5], [3.5, 4.5]], "float32")
        c = R.const([[[1, 2]], [[3, 4]]], "int64")
        d = R.const([True, False, True], "bool")
        e = R.const([0, 128, 255], "uint8")
        f = R.const([1.5, -2.25], "bfloat16")
        g = R.const([0.5, 1024.0, -0.125], "float16")
        h = R.const([1, 2], "float64")
        i = R.const([], "float32")
        j = R.const([[]], "int32")
        k = R.const([-1, 0, 1], "int8")
        return R.tuple()

    @R.function
    def python_literals(x: R.Tensor((2,), "float32")) -> R.Tuple:
        a = 1
        b = 2.5
        c = True
        d = R.add(x, R.const(1, "float32"))
        return R.tuple()

    @R.function
    def const_args(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        y = R.add(x, R.const([[1, 2], [3, 4]], "float32"))
        z = R.multiply(y, R.const(0.5, "float32"))
        return z

    @R.function
    def prim_values(x: R.Tensor(("n",), "float32")) -> R.Tuple:
        n = T.int64()
        a = R.prim_value(0)
        b = R.prim_value(True)
        c = R.prim_value(T.bool(False))
        d = R.prim_value(T.int32(-3))
        e = R.prim_value(T.int8(5))
        f = R.prim_value(T.uint8(200))
        g = R.prim_value(1.5)
        h = R.prim_value(T.float32(0.25))
        i = R.prim_value(T.float16(2))
        j = R.prim_value(n * 2 > 8)
        k = R.prim_value(-9223372036854775808)
        l = R.prim_value(T.float32("nan"))
        m = R.prim_value(T.float64("-inf"))
        o = R.prim_value(T.float32(-0.0))
        return R.tuple()
