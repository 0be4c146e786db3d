# Canonicalization runs inside a local function too, and a local function
# read after the block (a capture) stays an output; vars read only inside
# their own block become dataflow vars, in both functions.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        with R.dataflow():

            @R.function(pure=False)
            def inner(a: R.Tensor, b: R.Tensor) -> R.Tensor:
                with R.dataflow():
                    p = R.add(a, b)
                    q = R.multiply(a, p)
                    r = R.add(b, q)
                    R.output(p, q, r)
                _ = R.print(format="oops")
                s = r
                return s

            z = R.add(x, y)
            w = R.multiply(z, z)
            v = R.divide(w, z)
            R.output(inner, z, v, w)
        q = inner(w, v)
        return q


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor, y: R.Tensor) -> R.Tensor:
        with R.dataflow():

            @R.function(pure=False)
            def inner(a: R.Tensor, b: R.Tensor) -> R.Tensor:
                with R.dataflow():
                    p = R.add(a, b)
                    q = R.multiply(a, p)
                    r = R.add(b, q)
                    R.output(r)
                _ = R.print(format="oops")
                return r

            z = R.add(x, y)
            w = R.multiply(z, z)
            v = R.divide(w, z)
            R.output(inner, v, w)
        q = inner(w, v)
        return q
