# TVM's test_lower_alloc_tensor::test_basic: 16 x 32 float32 needs a 2048-byte
# uint8 storage; the tensor sits at offset 0 with the allocation's device.
# PIPELINE: lower-alloc-tensor
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tensor((16, 32), "float32"):
        x = R.builtin.alloc_tensor(R.shape([16, 32]), "float32", 0)
        return x


@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tensor((16, 32), "float32"):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        x = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        return x
