# Found by graft difftest: alone, the pass put a match_cast's impure check
# into a dataflow block. It states the precondition now.
# PIPELINE: vm-shape-lower
# EXPECT-ERROR: pass vm-shape-lower needs no dataflow block where it emits a check (run to-non-dataflow first); function 'main'
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            y = R.match_cast(x, R.Tensor((m,), "float32"))
            z = R.match_cast(y, R.Tensor((n,), "float32"))
            R.output(z)
        return z
