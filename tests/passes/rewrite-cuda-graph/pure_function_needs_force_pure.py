# A launch is an impure call: a pure function without relax.force_pure cannot
# take one, so the pass stops before changing anything (exit 2).
# PIPELINE: rewrite-cuda-graph
# EXPECT-ERROR: pass rewrite-cuda-graph needs function 'main' to be impure or relax.force_pure (run remove-purity-checking first)
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main() -> R.Tuple:
        s = R.memory.alloc_storage(R.shape([8]), 0, "global", "float32")
        t = R.memory.alloc_tensor(s, 0, R.shape([2]), "float32")
        return R.tuple()
