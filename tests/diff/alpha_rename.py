# DIFF: equal
# Var names and symbolic var names are ignored; only the binding structure counts.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, x)
            R.output(gv)
        return gv


@I.ir_module
class B:
    @R.function
    def main(data: R.Tensor(("m", 4), "float32")) -> R.Tensor(("m", 4), "float32"):
        m = T.int64()
        with R.dataflow():
            tmp = R.add(data, data)
            out = R.multiply(tmp, data)
            R.output(out)
        return out
