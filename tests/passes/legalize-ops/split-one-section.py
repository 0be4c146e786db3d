# Found by graft difftest: a split into one section yields a one-field tuple,
# and lowering it to call_dps_packed(..., out_sinfo=[T]) printed text that
# parses back as a single tensor (TVM's reading of a one-element out_sinfo),
# so `t[0]` no longer verified. The call now yields the tensor, wrapped in a
# tuple after it.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", 4), "float32")) -> R.Tensor(("m", 4), "float32"):
        t = R.split(x, 1, axis=1)
        y = t[0]
        return y


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", 4), "float32")) -> R.Tensor(("m", 4), "float32"):
        m = T.int64()
        gv = R.call_dps_packed("graft.split", (x, R.prim_value(1), R.prim_value(1)), out_sinfo=R.Tensor((m, 4), dtype="float32"))
        t = (gv,)
        y = t[0]
        return y
