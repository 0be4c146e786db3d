# TVM test_static_input_with_symbolic_shape: with num_input=1 the second
# parameter w is a weight, hence static, and its symbolic k is captured
# automatically. Capture inputs are (t0, w, t1) plus shape_expr.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8,), "float16"), w: R.Tensor(("k",))) -> R.Tuple(R.Tensor((8,), "float16")):
        k = T.int64()
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        s0 = R.memory.alloc_storage(R.shape([16]), 0, "global", "float16")
        t0 = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float16")
        c0 = R.call_packed("gemv", x, w, t0, sinfo_args=(R.Tuple,))
        s1 = R.memory.alloc_storage(R.shape([16]), 0, "global", "float16")
        t1 = R.memory.alloc_tensor(s1, 0, R.shape([8]), "float16")
        c1 = R.call_packed("gemv", t0, w, t1, sinfo_args=(R.Tuple,))
        s2 = R.memory.alloc_storage(R.shape([16]), 0, "global", "float16")
        t2 = R.memory.alloc_tensor(s2, 0, R.shape([8]), "float16")
        c2 = R.call_packed("gemv", t1, w, t2, sinfo_args=(R.Tuple,))
        res = (t2,)
        return res


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        s1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(t0: R.Tensor((8,), dtype="float16"), w: R.Tensor(("k",)), t1: R.Tensor((8,), dtype="float16"), shape_expr: R.Shape(["k"])) -> R.Tuple:
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        c1: R.Tuple = R.call_packed("gemv", t0, w, t1, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()

    @R.function
    def main(x: R.Tensor((8,), dtype="float16"), w: R.Tensor(("k",))) -> R.Tuple(R.Tensor((8,), dtype="float16")):
        k = T.int64()
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        t0: R.Tensor((8,), dtype="float16") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([8]), R.dtype("float16"))
        c0: R.Tuple = R.call_packed("gemv", x, w, t0, sinfo_args=(R.Tuple,))
        s1: R.Object = gv[1]
        t1: R.Tensor((8,), dtype="float16") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([8]), R.dtype("float16"))
        gv1: R.Tuple = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (t0, w, t1, R.shape([k])), R.prim_value(0), R.shape([k])), sinfo_args=(R.Tuple,))
        s2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        t2: R.Tensor((8,), dtype="float16") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([8]), R.dtype("float16"))
        c2: R.Tuple = R.call_packed("gemv", t1, w, t2, sinfo_args=(R.Tuple,))
        res: R.Tuple(R.Tensor((8,), dtype="float16")) = (t2,)
        return res
