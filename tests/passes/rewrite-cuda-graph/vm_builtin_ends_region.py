# TVM test_vm_builtin: a packed call to a vm.builtin.* symbol ends the region and is
# never captured. The copy `view = t2` is lifted. Outputs come in the order they are
# first read outside the region (view by the builtin, then t2 by the last kernel),
# and each is unpacked at its own binding: t2 = gv1[1] before view = gv1[0].
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def relu(a: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"global_symbol": "relu", "tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            b[i, j] = T.max(a[i, j], T.float32(0))

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t0: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        k0: R.Tuple = cls.relu(x, t0)
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s1, 0, R.shape([2, 4]), "float32")
        k1: R.Tuple = cls.relu(t0, t1)
        d0: R.Tuple = R.memory.kill_tensor(t0)
        t2: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        view: R.Tensor((2, 4), dtype="float32") = t2
        b0: R.Tuple = R.call_packed("vm.builtin.debug_hook", (x, view), sinfo_args=R.Tuple())
        d1: R.Tuple = R.memory.kill_tensor(t1)
        out: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), "float32", 0)
        k2: R.Tuple = cls.relu(t2, out)
        d2: R.Tuple = R.memory.kill_tensor(t2)
        d3: R.Tuple = R.memory.kill_storage(s0)
        return out


@I.ir_module
class Expected:
    @T.prim_func
    def relu(a: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"global_symbol": "relu", "tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            b[i, j] = T.max(a[i, j], T.float32(0))

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(t0: R.Tensor((2, 4), dtype="float32"), t1: R.Tensor((2, 4), dtype="float32"), s0: R.Object) -> R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        k1: R.Tuple = cls.relu(t0, t1)
        d0: R.Tuple = R.memory.kill_tensor(t0)
        t2: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        view: R.Tensor((2, 4), dtype="float32") = t2
        gv: R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")) = (view, t2)
        return gv

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        t0: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        k0: R.Tuple = cls.relu(x, t0)
        s1: R.Object = gv[1]
        t1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"))
        gv1: R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (t0, t1, s0), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")),))
        t2: R.Tensor((2, 4), dtype="float32") = gv1[1]
        view: R.Tensor((2, 4), dtype="float32") = gv1[0]
        b0: R.Tuple = R.call_packed("vm.builtin.debug_hook", (x, view), sinfo_args=(R.Tuple,))
        d1: R.Tuple = R.memory.kill_tensor(t1)
        out: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        k2: R.Tuple = cls.relu(t2, out)
        d2: R.Tuple = R.memory.kill_tensor(t2)
        d3: R.Tuple = R.memory.kill_storage(s0)
        return out
