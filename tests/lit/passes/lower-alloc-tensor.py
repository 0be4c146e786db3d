# TVM's test_lower_alloc_tensor::test_basic: 16 x 32 float32 needs a 2048-byte
# uint8 storage; the tensor sits at offset 0 with the allocation's device.
# RUN: %graft opt %s -p lower-alloc-tensor | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((16, 32), "float32"):
        x = R.builtin.alloc_tensor(R.shape([16, 32]), "float32", 0)
        return x

# CHECK-LABEL: def main(
# CHECK: storage: R.Object = R.memory.alloc_storage(R.shape([2048]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
# CHECK: x: R.Tensor((16, 32), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([16, 32]), R.dtype("float32"), R.prim_value(0))
