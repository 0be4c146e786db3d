# v is read only inside a dataflow block, but not the one defining it: it
# must stay an output. Nothing changes.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, y)
            v = R.add(w, x)
            R.output(v)
        _ = R.print(format="between blocks")
        with R.dataflow():
            a = R.multiply(v, v)
            b = R.add(a, a)
            c = R.subtract(b, a)
            d = R.add(c, c)
            R.output(d)
        return d


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        with R.dataflow():
            z = R.add(x, y)
            w = R.multiply(z, y)
            v = R.add(w, x)
            R.output(v)
        _ = R.print(format="between blocks")
        with R.dataflow():
            a = R.multiply(v, v)
            b = R.add(a, a)
            c = R.subtract(b, a)
            d = R.add(c, c)
            R.output(d)
        return d
