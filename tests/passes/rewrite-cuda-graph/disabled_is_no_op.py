# TVM test_transform_is_no_op_when_disabled, off half: with
# relax.backend.use_cuda_graph=false the pass leaves the module alone, even though
# the storage below would be lifted when it is on (enabled_lifts_storage.py).
# PIPELINE: rewrite-cuda-graph
# CONFIG: relax.backend.use_cuda_graph=false
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        s = R.memory.alloc_storage(R.shape([8]), 0, "global", "float32")
        t = R.memory.alloc_tensor(s, 0, R.shape([2]), "float32")
        return R.tuple()


@I.ir_module
class Expected:
    @R.function
    def main() -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        s = R.memory.alloc_storage(R.shape([8]), 0, "global", "float32")
        t = R.memory.alloc_tensor(s, 0, R.shape([2]), "float32")
        return R.tuple()
