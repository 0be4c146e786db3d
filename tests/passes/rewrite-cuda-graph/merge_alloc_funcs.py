# TVM test_merge_alloc_funcs: two functions share one cuda_graph_alloc. Per scope
# ("global" before "ipc_memory"), each function's storages are sorted by size
# (largest first) and the i-th of every function shares one merged storage, the
# largest of them: f1 global {128, 256} and f2 global {192, 64, 512} merge to
# (f2.q3=512, f2.q0=192, f2.q1=64); ipc f1 {512} and f2 {1024} to f2.q2=1024.
# Storages are unpacked where they were allocated. Launch indices count across
# the module: f1's capture is 0, f2's is 1.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def f1():
        R.func_attr({"relax.force_pure": True})
        p0 = R.memory.alloc_storage(R.shape([128]), 0, "global", "float32")
        p1 = R.memory.alloc_storage(R.shape([256]), 0, "global", "float32")
        p2 = R.memory.alloc_storage(R.shape([512]), 0, "ipc_memory", "float32")
        a0 = R.memory.alloc_tensor(p0, 0, R.shape([32]), "float32")
        a1 = R.memory.alloc_tensor(p1, 0, R.shape([64]), "float32")
        a2 = R.memory.alloc_tensor(p2, 0, R.shape([128]), "float32")
        R.call_packed("all_reduce", a0, a1, a2, sinfo_args=(R.Tuple,))
        return R.tuple()

    @R.function
    def f2():
        R.func_attr({"relax.force_pure": True})
        q0 = R.memory.alloc_storage(R.shape([192]), 0, "global", "float32")
        q1 = R.memory.alloc_storage(R.shape([64]), 0, "global", "float32")
        q2 = R.memory.alloc_storage(R.shape([1024]), 0, "ipc_memory", "float32")
        q3 = R.memory.alloc_storage(R.shape([512]), 0, "global", "float32")
        b0 = R.memory.alloc_tensor(q0, 0, R.shape([48]), "float32")
        b1 = R.memory.alloc_tensor(q1, 0, R.shape([16]), "float32")
        b2 = R.memory.alloc_tensor(q2, 0, R.shape([256]), "float32")
        b3 = R.memory.alloc_tensor(q3, 0, R.shape([128]), "float32")
        R.call_packed("all_reduce", b0, b1, b2, b3, sinfo_args=(R.Tuple,))
        return R.tuple()


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object, R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        q3: R.Object = R.memory.alloc_storage(R.shape([512]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        q0: R.Object = R.memory.alloc_storage(R.shape([192]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        q1: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        q2: R.Object = R.memory.alloc_storage(R.shape([1024]), R.prim_value(0), R.str("ipc_memory"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = (q3, q0, q1, q2)
        return gv

    @R.function
    def f1() -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object, R.Object),))
        p0: R.Object = gv[1]
        p1: R.Object = gv[0]
        p2: R.Object = gv[3]
        a0: R.Tensor((32,), dtype="float32") = R.memory.alloc_tensor(p0, R.prim_value(0), R.shape([32]), R.dtype("float32"))
        a1: R.Tensor((64,), dtype="float32") = R.memory.alloc_tensor(p1, R.prim_value(0), R.shape([64]), R.dtype("float32"))
        a2: R.Tensor((128,), dtype="float32") = R.memory.alloc_tensor(p2, R.prim_value(0), R.shape([128]), R.dtype("float32"))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.f1_cuda_graph_capture, (a0, a1, a2), R.prim_value(0)), sinfo_args=(R.Tuple,))
        return R.tuple()

    @R.function(private=True)
    def f1_cuda_graph_capture(a0: R.Tensor((32,), dtype="float32"), a1: R.Tensor((64,), dtype="float32"), a2: R.Tensor((128,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        R.call_packed("all_reduce", a0, a1, a2, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()

    @R.function
    def f2() -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object, R.Object),))
        q0: R.Object = gv[1]
        q1: R.Object = gv[2]
        q2: R.Object = gv[3]
        q3: R.Object = gv[0]
        b0: R.Tensor((48,), dtype="float32") = R.memory.alloc_tensor(q0, R.prim_value(0), R.shape([48]), R.dtype("float32"))
        b1: R.Tensor((16,), dtype="float32") = R.memory.alloc_tensor(q1, R.prim_value(0), R.shape([16]), R.dtype("float32"))
        b2: R.Tensor((256,), dtype="float32") = R.memory.alloc_tensor(q2, R.prim_value(0), R.shape([256]), R.dtype("float32"))
        b3: R.Tensor((128,), dtype="float32") = R.memory.alloc_tensor(q3, R.prim_value(0), R.shape([128]), R.dtype("float32"))
        R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.f2_cuda_graph_capture, (b0, b1, b2, b3), R.prim_value(1)), sinfo_args=(R.Tuple,))
        return R.tuple()

    @R.function(private=True)
    def f2_cuda_graph_capture(b0: R.Tensor((48,), dtype="float32"), b1: R.Tensor((16,), dtype="float32"), b2: R.Tensor((256,), dtype="float32"), b3: R.Tensor((128,), dtype="float32")) -> R.Tuple:
        R.func_attr({"relax.force_pure": True})
        R.call_packed("all_reduce", b0, b1, b2, b3, sinfo_args=(R.Tuple,))
        R.tuple()
        return R.tuple()
