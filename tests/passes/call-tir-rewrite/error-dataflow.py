# A call_tir still inside a dataflow block: the pass refuses before changing
# anything (to-non-dataflow must run first).
# PIPELINE: call-tir-rewrite
# EXPECT-ERROR: pass call-tir-rewrite needs R.call_dps_packed outside dataflow blocks (run to-non-dataflow first)
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            y = R.call_dps_packed("test.copy", (x,), out_sinfo=R.Tensor((4,), "float32"))
            R.output(y)
        return y
