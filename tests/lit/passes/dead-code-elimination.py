# l4 reads l0 from an earlier block and is itself unread: l4 goes, then l0
# (its only reader died), then l0's block, which is left empty.
# RUN: %graft opt %s -p dead-code-elimination | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), "float32"), w: R.Tensor((4, 3, 3, 3), "float32")):
        with R.dataflow():
            l0 = R.permute_dims(x, axes=[0, 2, 3, 1])
            R.output(l0)
        hx = R.astype(x, dtype="float16")
        hw = R.astype(w, dtype="float16")
        with R.dataflow():
            l1 = R.permute_dims(hx, axes=[0, 2, 3, 1])
            l2 = R.permute_dims(hw, axes=[0, 2, 3, 1])
            l3: R.Tensor((2, 2, 2, 4), "float16") = R.nn.conv2d(l1, l2, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC")
            l4 = R.permute_dims(l0, axes=[0, 3, 1, 2])
            R.output(l3)
        return l3

# CHECK-LABEL: def main(
# CHECK-NOT: l0
# CHECK: hx: R.Tensor((2, 3, 4, 4), dtype="float16") = R.astype(x, dtype="float16")
# CHECK: l3: R.Tensor((2, 2, 2, 4), dtype="float16") = R.nn.conv2d(l1, l2
# CHECK-NOT: l4
# CHECK: return l3
