# Nested (local) functions and closures, including recursion and captured vars.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Local:
    @R.function
    def simple(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        @R.function
        def inner(y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            z = R.add(y, y)
            return z

        r = inner(x)
        return r

    @R.function
    def capture(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        @R.function
        def inner(y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            z = R.add(x, y)
            return z

        r = inner(x)
        return r

    @R.function
    def symbolic_inner(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()

        @R.function
        def inner(y: R.Tensor(("m",), "float32")) -> R.Tensor(("m",), "float32"):
            m = T.int64()
            z = R.exp(y)
            return z

        r = inner(x)
        return r

    @R.function
    def impure_inner(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        @R.function(pure=False)
        def inner(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            R.print(y, format="inner")
            return y

        return x

    @R.function
    def recursive(n: R.Tensor((), "int32"), acc: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        @R.function
        def loop(i: R.Tensor((), "int32"), a: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
            cond = R.greater(i, R.const(0, "int32"))
            if cond:
                i1 = R.subtract(i, R.const(1, "int32"))
                a1 = R.add(a, i)
                r = loop(i1, a1)
            else:
                r = a
            return r

        res = loop(n, acc)
        return res

    @R.function
    def closure_value(x: R.Tensor((2,), "float32")) -> R.Callable((R.Tensor((2,), "float32"),), R.Tensor((2,), "float32")):
        @R.function
        def add_x(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            z = R.add(x, y)
            return z

        return add_x

    @R.function
    def in_dataflow(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            @R.function
            def f(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
                return y

            gv = f(x)
            R.output(gv)
        return gv
