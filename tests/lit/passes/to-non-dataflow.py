# A dataflow block becomes a plain block; its DataflowVar lv0 becomes a Var,
# the output gv0 and the parameter stay (TVM's test_to_non_dataflow).
# RUN: %graft opt %s -p to-non-dataflow | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def foo(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        m = T.int64()
        n = T.int64()
        with R.dataflow():
            lv0 = R.call_dps_packed("test.op.identity", (x,), out_sinfo=R.Tensor((m, n), "float32"))
            gv0 = R.call_dps_packed("test.op.identity", (lv0,), out_sinfo=R.Tensor((m, n), "float32"))
            R.output(gv0)
        return gv0

# CHECK-LABEL: def foo(
# CHECK-NOT: R.dataflow()
# CHECK: lv0 = R.call_dps_packed("test.op.identity", (x,)
# CHECK-NEXT: gv0 = R.call_dps_packed("test.op.identity", (lv0,)
# CHECK-NEXT: return gv0
