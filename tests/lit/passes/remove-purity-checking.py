# Wrappers inside if branches are unwrapped too.
# RUN: %graft opt %s -p remove-purity-checking | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        if c:
            r = R.call_pure_packed("vm.builtin.copy", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        else:
            r = R.add(x, x)
        return r

# CHECK-LABEL: def main(
# CHECK: R.func_attr({"relax.force_pure": True})
# CHECK: r_then: R.Tensor((4,), dtype="float32") = R.call_packed("vm.builtin.copy", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
