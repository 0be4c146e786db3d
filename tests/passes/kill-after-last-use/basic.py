# TVM test_basic: the storage dies right after the alloc_tensor that is its
# last use; y dies after z; no kill for the param x, the unused _dummy or the
# output z.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _dummy = R.call_packed("add_tensors", [x, y], sinfo_args=(R.Tuple,))
        z = R.add(x, y)
        return z


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _ = R.memory.kill_storage(storage)
        _dummy = R.call_packed("add_tensors", [x, y], sinfo_args=(R.Tuple,))
        z = R.add(x, y)
        _ = R.memory.kill_tensor(y)
        return z
