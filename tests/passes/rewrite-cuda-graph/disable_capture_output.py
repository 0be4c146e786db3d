# TVM test_disable_capture_output: t2 reaches the return through a tuple, so its
# storage s2 is never static: it stays an alloc_storage in main, and its
# alloc_tensor ends the region. The first call reads the input x; only the middle
# call is captured. Its capture function has no output: it returns R.tuple()
# itself (TVM's form), after the binding of the empty tuple.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8,), "float32")) -> R.Tuple(R.Tensor((8,), "float32")):
        R.func_attr({"relax.force_pure": True})
        s0 = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t0 = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float32")
        c0 = R.call_packed("scale", x, t0, sinfo_args=(R.Tuple,))
        s1 = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t1 = R.memory.alloc_tensor(s1, 0, R.shape([8]), "float32")
        c1 = R.call_packed("scale", t0, t1, sinfo_args=(R.Tuple,))
        s2 = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t2 = R.memory.alloc_tensor(s2, 0, R.shape([8]), "float32")
        c2 = R.call_packed("scale", t1, t2, sinfo_args=(R.Tuple,))
        res = (t2,)
        return res


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(t0: R.Tensor((8,), dtype="float32"), t1: R.Tensor((8,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        c1: R.Tuple = R.call_packed("scale", t0, t1, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((8,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        t0: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        c0: R.Tuple = R.call_packed("scale", x, t0, sinfo_args=(R.Tuple,))
        s1: R.Object = gv[1]
        t1: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        gv1: R.Tuple = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (t0, t1), R.prim_value(0)), sinfo_args=(R.Tuple,))
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        t2: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([8]), R.dtype("float32"))
        c2: R.Tuple = R.call_packed("scale", t1, t2, sinfo_args=(R.Tuple,))
        res: R.Tuple(R.Tensor((8,), dtype="float32")) = (t2,)
        return res
