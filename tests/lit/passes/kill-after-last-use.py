# TVM test_basic: the storage dies right after the alloc_tensor that is its
# last use; y dies after z; no kill for the param x, the unused _dummy or the
# output z.
# RUN: %graft opt %s -p kill-after-last-use | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _dummy = R.call_packed("add_tensors", [x, y], sinfo_args=(R.Tuple,))
        z = R.add(x, y)
        return z

# CHECK-LABEL: def main(
# CHECK: R.memory.kill_storage(storage)
# CHECK: R.memory.kill_tensor(y)
