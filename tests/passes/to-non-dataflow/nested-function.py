# Dataflow blocks of a nested function and of both functions of the module
# are converted too.
# PIPELINE: to-non-dataflow
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def inner(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                t = R.add(y, y)
                u = R.multiply(t, y)
                R.output(u)
            return u

        with R.dataflow():
            a = inner(x)
            b = R.add(a, x)
            R.output(b)
        return b

    @R.function
    def other(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            R.output(a)
        return a


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def inner(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            t = R.add(y, y)
            u = R.multiply(t, y)
            return u

        a = inner(x)
        b = R.add(a, x)
        return b

    @R.function
    def other(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.add(x, x)
        return a
