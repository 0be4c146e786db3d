# A chain of elementwise ops becomes one Primitive function called as graft.fused.<name>.
# RUN: %graft opt %s -p fuse-elementwise | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.add(x, y)
            b: R.Tensor((4, 8), dtype="float32") = R.exp(a)
            c: R.Tensor((4, 8), dtype="float32") = R.multiply(b, x)
            R.output(c)
        return c

# CHECK: @R.function(private=True)
# CHECK-LABEL: def fused_add_exp_multiply(
# CHECK: R.func_attr({"Primitive": True})
# CHECK-LABEL: def main(
# CHECK: c = R.call_dps_packed("graft.fused.fused_add_exp_multiply", (x, y), out_sinfo=R.Tensor((4, 8), dtype="float32"))
