# TVM test_rewrite_cuda_graph: three static storages merge into cuda_graph_alloc
# (s0, s1, s2); the first kernel reads the input x and is not captured; the region
# starts at the second kernel, takes in the kills and memory.alloc_tensor calls, and
# ends at the kernel whose output is an R.builtin.alloc_tensor. Capture inputs are
# (t0, t1, s0, s2); s2 is unpacked right before the launch, earlier than its own
# binding, because the launch needs it. The only output is t3.
# RUN: %graft opt %s -p rewrite-cuda-graph | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func
    def sigmoid(a: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"global_symbol": "sigmoid", "tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            b[i, j] = T.sigmoid(a[i, j])

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t0: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        k0: R.Tuple = cls.sigmoid(x, t0)
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s1, 0, R.shape([2, 4]), "float32")
        k1: R.Tuple = cls.sigmoid(t0, t1)
        d0: R.Tuple = R.memory.kill_tensor(t0)
        t2: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        k2: R.Tuple = cls.sigmoid(t1, t2)
        d1: R.Tuple = R.memory.kill_tensor(t1)
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t3: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s2, 0, R.shape([2, 4]), "float32")
        k3: R.Tuple = cls.sigmoid(t2, t3)
        d2: R.Tuple = R.memory.kill_tensor(t2)
        out: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), "float32", 0)
        k4: R.Tuple = cls.sigmoid(t3, out)
        d3: R.Tuple = R.memory.kill_tensor(t3)
        d4: R.Tuple = R.memory.kill_storage(s0)
        d5: R.Tuple = R.memory.kill_storage(s1)
        d6: R.Tuple = R.memory.kill_storage(s2)
        return out

# CHECK-LABEL: def sigmoid(
# CHECK: @R.function(private=True)
# CHECK-LABEL: def cuda_graph_alloc(
# CHECK: gv: R.Tuple(R.Object, R.Object, R.Object) = (s0, s1, s2)
# CHECK: return gv
# CHECK: @R.function(private=True)
# CHECK-LABEL: def main_cuda_graph_capture(
# CHECK: gv: R.Tuple(R.Tensor((2, 4), dtype="float32")) = (t3,)
# CHECK: return gv
# CHECK-LABEL: def main(
# CHECK: gv: R.Tuple(R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object),))
# CHECK: s0: R.Object = gv[0]
# CHECK: s1: R.Object = gv[1]
# CHECK: s2: R.Object = gv[2]
# CHECK: gv_1: R.Tuple(R.Tensor((2, 4), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (t0, t1, s0, s2), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, 4), dtype="float32")),))
# CHECK: t3: R.Tensor((2, 4), dtype="float32") = gv_1[0]
