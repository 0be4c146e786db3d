# TVM test_track_usage_across_trivial_rebindings: `y = x` folds away first,
# so the kill hits x after the last use of either name.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(p: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        x = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        y = x
        _dummy = R.call_packed("fill", [y], sinfo_args=(R.Tuple,))
        z = R.add(p, y)
        return z


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(p: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        x = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _ = R.memory.kill_storage(storage)
        _dummy = R.call_packed("fill", [x], sinfo_args=(R.Tuple,))
        z = R.add(p, x)
        _ = R.memory.kill_tensor(x)
        return z
