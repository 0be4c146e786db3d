# TVM test_transform_is_no_op_when_disabled, on half: the same module with the
# flag on (the default when -p names the pass) changes: the used storage moves into
# cuda_graph_alloc although no kernel is captured. (TVM's module has no
# relax.force_pure; graft requires it, see pure_function_needs_force_pure.py.)
# PIPELINE: rewrite-cuda-graph
# CONFIG: relax.backend.use_cuda_graph=true
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
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object):
        R.func_attr({"relax.force_pure": True})
        s: R.Object = R.memory.alloc_storage(R.shape([8]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object) = (s,)
        return gv

    @R.function
    def main() -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object),))
        s: R.Object = gv[0]
        t = R.memory.alloc_tensor(s, 0, R.shape([2]), "float32")
        return R.tuple()
