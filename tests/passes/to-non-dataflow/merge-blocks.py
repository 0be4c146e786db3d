# Plain blocks around a converted dataflow block merge into one block; a
# match_cast of a DataflowVar becomes a plain match_cast.
# PIPELINE: to-non-dataflow
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        R.print(x, format="before")
        with R.dataflow():
            a = R.add(x, x)
            b = R.match_cast(a, R.Tensor((n,), "float32"))
            c = R.multiply(b, b)
            R.output(c)
        R.print(c, format="after")
        return c


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        R.print(x, format="before")
        a = R.add(x, x)
        b = R.match_cast(a, R.Tensor((n,), "float32"))
        c = R.multiply(b, b)
        R.print(c, format="after")
        return c
