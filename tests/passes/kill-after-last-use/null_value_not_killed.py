# TVM #20267: a var bound to R.null_value() never gets a VM
# register, so it is never killed, although its type R.Object is that of a
# killable object. Without the rule the pass adds
# `_ = R.vm.kill_object(shape_heap)` after the packed call.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        shape_heap: R.Object = R.null_value()
        _dummy = R.call_packed("use_shape_heap", [shape_heap], sinfo_args=(R.Tuple,))
        z = R.add(x, y)
        return z


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _ = R.memory.kill_storage(storage)
        shape_heap: R.Object = R.null_value()
        _dummy = R.call_packed("use_shape_heap", [shape_heap], sinfo_args=(R.Tuple,))
        z = R.add(x, y)
        _ = R.memory.kill_tensor(y)
        return z
