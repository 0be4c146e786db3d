# TVM test_track_usage_across_trivial_rebindings_in_match_cast: a match_cast
# that drops the dtype is not trivial, so x dies right after it and y after
# its own last use.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(p: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        x = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        y = R.match_cast(x, R.Tensor([16, 32]))
        _dummy = R.call_packed("fill", [y], sinfo_args=(R.Tuple,))
        z = R.add(p, p)
        return z


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(p: R.Tensor([16, 32], "float32")):
        storage = R.memory.alloc_storage(R.shape([2048]), 0, "global", "uint8")
        x = R.memory.alloc_tensor(storage, 0, R.shape([16, 32]), "float32")
        _ = R.memory.kill_storage(storage)
        y = R.match_cast(x, R.Tensor([16, 32]))
        _ = R.memory.kill_tensor(x)
        _dummy = R.call_packed("fill", [y], sinfo_args=(R.Tuple,))
        _ = R.memory.kill_tensor(y)
        z = R.add(p, p)
        return z
