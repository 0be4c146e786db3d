# Capture safety comes from the op registry and the symbol: R.print (an op marked
# non-capturable), a packed call to a graft.host.* kernel, and R.index_tensor with
# a boolean mask (capturable only without one) each end the open region and stay in
# main although all their arguments are static. Capture functions are shared when
# structurally equal: main's first two regions and g's region lift the same call
# and launch main_cuda_graph_capture; the third differs and is named
# main_cuda_graph_capture1. Launch indices count across the module: g's is 3.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8,), "float32"), mask: R.Tensor((8,), "bool")) -> R.Tensor(ndim=1, dtype="float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        a0: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float32")
        k0 = R.call_packed("copy", x, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        a1: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s1, 0, R.shape([8]), "float32")
        k1 = R.call_packed("relu", a0, a1, sinfo_args=(R.Tuple,))
        p = R.print(a1, format="a1: {}")
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        a2: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s2, 0, R.shape([8]), "float32")
        k2 = R.call_packed("relu", a1, a2, sinfo_args=(R.Tuple,))
        cnt = R.call_packed("graft.host.nonzero_count", a2, sinfo_args=(R.Tuple,))
        s3: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        a3: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s3, 0, R.shape([8]), "float32")
        k3 = R.call_packed("relu", a2, a3, sinfo_args=(R.Tuple,))
        k4 = R.call_packed("scale", a3, a3, sinfo_args=(R.Tuple,))
        picked = R.index_tensor(a3, (mask,))
        return picked

    @R.function
    def g(y: R.Tensor((8,), "float32"), w: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        b0: R.Tensor((8,), "float32") = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float32")
        k0 = R.call_packed("relu", w, b0, sinfo_args=(R.Tuple,))
        out: R.Tensor((8,), "float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0))
        k1 = R.call_packed("add", y, b0, out, sinfo_args=(R.Tuple,))
        return out


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object, R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s3: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = (s0, s1, s2, s3)
        return gv

    @R.function
    def g(y: R.Tensor((8,), dtype="float32"), w: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object, R.Object),))
        s0: R.Object = gv[0]
        b0: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (w, b0), R.prim_value(3)), sinfo_args=(R.Tuple,))
        out: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        R.call_packed("add", y, b0, out, sinfo_args=(R.Tuple,))
        return out

    @R.function(private=True)
    def main_cuda_graph_capture(a0: R.Tensor((8,), dtype="float32"), a1: R.Tensor((8,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        R.call_packed("relu", a0, a1, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()

    @R.function(private=True)
    def main_cuda_graph_capture1(a2: R.Tensor((8,), dtype="float32"), a3: R.Tensor((8,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        R.call_packed("relu", a2, a3, sinfo_args=(R.Tuple,))
        R.call_packed("scale", a3, a3, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), mask: R.Tensor((8,), dtype="bool")) -> R.Tensor(dtype="float32", ndim=1):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object, R.Object),))
        s0: R.Object = gv[0]
        a0: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        R.call_packed("copy", x, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = gv[1]
        a1: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (a0, a1), R.prim_value(0)), sinfo_args=(R.Tuple,))
        R.print(a1, format=R.str("a1: {}"))
        s2: R.Object = gv[2]
        a2: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (a1, a2), R.prim_value(1)), sinfo_args=(R.Tuple,))
        R.call_packed("graft.host.nonzero_count", a2, sinfo_args=(R.Tuple,))
        s3: R.Object = gv[3]
        a3: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(s3, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture1, (a2, a3), R.prim_value(2)), sinfo_args=(R.Tuple,))
        picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(a3, (mask,))
        return picked
