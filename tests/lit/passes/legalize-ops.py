# Unary and binary elementwise ops become destination-passing kernel calls;
# a binary op that broadcasts keeps its broadcast output shape as out_sinfo,
# and a comparison's output is bool.
# RUN: %graft opt %s -p legalize-ops | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor((2, 3), "bool"):
        with R.dataflow():
            a = R.exp(x)
            b = R.add(a, y)
            c = R.nn.relu(b)
            d = R.less(c, y)
            R.output(d)
        return d

# CHECK-LABEL: def main(
# CHECK: a = R.call_dps_packed("graft.exp", (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
# CHECK: b = R.call_dps_packed("graft.add", (a, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
# CHECK: c = R.call_dps_packed("graft.nn.relu", (b,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
# CHECK: d = R.call_dps_packed("graft.less", (c, y), out_sinfo=R.Tensor((2, 3), dtype="bool"))
