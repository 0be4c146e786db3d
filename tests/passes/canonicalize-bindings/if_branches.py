# Inside if branches: an output read only inside its branch's block becomes a
# dataflow var, and a copy in a branch folds.
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor, y: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        if c:
            with R.dataflow():
                w = R.add(z, z)
                v = R.multiply(w, w)
                R.output(w, v)
            u = v
            q = u
        else:
            with R.dataflow():
                w2 = R.multiply(z, z)
                v2 = R.add(w2, w2)
                R.output(w2, v2)
            q = v2
        return q


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor, y: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        if c:
            with R.dataflow():
                w = R.add(z, z)
                v = R.multiply(w, w)
                R.output(v)
            q = v
        else:
            with R.dataflow():
                w2 = R.multiply(z, z)
                v2 = R.add(w2, w2)
                R.output(v2)
            q = v2
        return q
