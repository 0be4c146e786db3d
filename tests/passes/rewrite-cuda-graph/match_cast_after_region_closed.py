# Regression, TVM #20485: a match_cast over a var of a region that is already closed
# (the vm.builtin call ended it) also makes that var an output of its region.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 16), "float32")) -> R.Tensor(ndim=2, dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([256]), 0, "global", "float32")
        a0: R.Tensor((4, 16), "float32") = R.memory.alloc_tensor(s0, 0, R.shape([4, 16]), "float32")
        k0 = R.call_packed("copy", x, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = R.memory.alloc_storage(R.shape([256]), 0, "global", "float32")
        a1: R.Tensor((4, 16), "float32") = R.memory.alloc_tensor(s1, 0, R.shape([4, 16]), "float32")
        k1 = R.call_packed("relu", a0, a1, sinfo_args=(R.Tuple,))
        flat: R.Tensor((64,), "float32") = R.reshape(a1, R.shape([64]))
        sync = R.call_packed("vm.builtin.sync", sinfo_args=(R.Tuple,))
        m = R.match_cast(flat, R.Tensor((n,), "float32"))
        out: R.Tensor((n,), "float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0))
        k2 = R.call_packed("relu", m, out, sinfo_args=(R.Tuple,))
        res = R.reshape(out, R.shape([1, n]))
        return res


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([256]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([256]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(a0: R.Tensor((4, 16), dtype="float32"), a1: R.Tensor((4, 16), dtype="float32")) -> R.Tuple(R.Tensor((64,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        R.call_packed("relu", a0, a1, sinfo_args=(R.Tuple,))
        flat: R.Tensor((64,), dtype="float32") = R.reshape(a1, R.shape([64]))
        gv: R.Tuple(R.Tensor((64,), dtype="float32")) = (flat,)
        return gv

    @R.function
    def main(x: R.Tensor((4, 16), dtype="float32")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        n = T.int64()
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        a0: R.Tensor((4, 16), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4, 16]), R.dtype("float32"), R.prim_value(0))
        R.call_packed("copy", x, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = gv[1]
        a1: R.Tensor((4, 16), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([4, 16]), R.dtype("float32"), R.prim_value(0))
        gv_1: R.Tuple(R.Tensor((64,), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (a0, a1), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((64,), dtype="float32")),))
        flat: R.Tensor((64,), dtype="float32") = gv_1[0]
        R.call_packed("vm.builtin.sync", sinfo_args=(R.Tuple,))
        m: R.Tensor((n,), dtype="float32") = R.match_cast(flat, R.Tensor((n,), dtype="float32"))
        out: R.Tensor((n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        R.call_packed("relu", m, out, sinfo_args=(R.Tuple,))
        res: R.Tensor((1, n), dtype="float32") = R.reshape(out, R.shape([1, n]))
        return res
