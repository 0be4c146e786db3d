# TVM test_static_args: a packed call (not vm.builtin) whose other arguments are a
# dtype and a string is a kernel launch with static arguments; a one-binding region
# is captured, returning an empty tuple. Works in a pure=False function.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main() -> R.Tuple:
        st = R.memory.alloc_storage(R.shape([8]), 0, "global", "float32")
        buf = R.memory.alloc_tensor(st, 0, R.shape([2]), "float32")
        r = R.call_packed("fill_value", buf, R.dtype("float32"), R.str("ones"))
        return R.tuple()


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object):
        R.func_attr({"relax.force_pure": True})
        st: R.Object = R.memory.alloc_storage(R.shape([8]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object) = (st,)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(buf: R.Tensor((2,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        r: R.Object = R.call_packed("fill_value", buf, R.dtype("float32"), R.str("ones"))
        R.tuple()
        return R.tuple()

    @R.function(pure=False)
    def main() -> R.Tuple:
        cls = Expected
        gv: R.Tuple(R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object),))
        st: R.Object = gv[0]
        buf: R.Tensor((2,), dtype="float32") = R.memory.alloc_tensor(st, R.prim_value(0), R.shape([2]), R.dtype("float32"))
        gv1: R.Tuple = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (buf,), R.prim_value(0)), sinfo_args=(R.Tuple,))
        return R.tuple()
