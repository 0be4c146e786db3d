# `out = R.match_cast(t, ...)` to a different struct info is a check, not a
# copy: it stays. (TVM's dataflow-block fold would make it read R.add(x, x)
# directly, which the parser lifts back out; graft keeps match_cast values in
# normal form and leaves this binding alone.)
# PIPELINE: canonicalize-bindings
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), "float32")):
        with R.dataflow():
            t = R.add(x, x)
            out = R.match_cast(t, R.Tensor(ndim=1, dtype="float32"))
            R.output(out)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), "float32")):
        with R.dataflow():
            t = R.add(x, x)
            out = R.match_cast(t, R.Tensor(ndim=1, dtype="float32"))
            R.output(out)
        return out
