# The pass runs after to-non-dataflow: a capturable binding inside a dataflow
# block is a missing precondition (exit 2), not something to rewrite.
# PIPELINE: rewrite-cuda-graph
# EXPECT-ERROR: pass rewrite-cuda-graph needs no dataflow block around a capturable binding (run to-non-dataflow first): function 'main' has one
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8,), "float32"), w: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        with R.dataflow():
            a = R.add(w, w)
            b = R.multiply(a, a)
            c = R.add(x, b)
            R.output(c)
        return c
