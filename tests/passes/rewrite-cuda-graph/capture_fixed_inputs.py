# TVM test_capture_fixed_inputs (TVM only checks that the pass runs): a module as the
# lowering pipeline leaves it, with num_input=1 and the weights in a params tuple.
# Reading a weight (params[i]) is static; the region starts at the first kernel
# whose inputs are all static and lifts the weight reads after it; the weight w2
# read inside the region is an output because the last kernel, outside, uses it.
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def conv_relu(a: T.Buffer((T.int64(4), T.int64(16)), "float16"), w: T.Buffer((T.int64(16), T.int64(16)), "float16"), o: T.Buffer((T.int64(4), T.int64(16)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(4), T.int64(16)):
            o[i, j] = a[i, j] * w[j, j]

    @T.prim_func
    def norm(a: T.Buffer((T.int64(4), T.int64(16)), "float16"), g: T.Buffer((T.int64(16),), "float16"), b: T.Buffer((T.int64(16),), "float16"), o: T.Buffer((T.int64(4), T.int64(16)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(4), T.int64(16)):
            o[i, j] = a[i, j] * g[j] + b[j]

    @R.function
    def main(data: R.Tensor((4, 16), "float16"), params: R.Tuple(R.Tensor((16, 16), "float16"), R.Tensor((16, 16), "float16"), R.Tensor((16,), "float16"), R.Tensor((16,), "float16"))) -> R.Tensor((4, 16), "float16"):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Before
        w0: R.Tensor((16, 16), "float16") = params[0]
        s0: R.Object = R.memory.alloc_storage(R.shape([128]), 0, "global", "float16")
        a0: R.Tensor((4, 16), "float16") = R.memory.alloc_tensor(s0, 0, R.shape([4, 16]), "float16")
        k0 = cls.conv_relu(data, w0, a0)
        h0: R.Tensor((4, 16), "float16") = a0
        w1: R.Tensor((16, 16), "float16") = params[1]
        s1: R.Object = R.memory.alloc_storage(R.shape([128]), 0, "global", "float16")
        a1: R.Tensor((4, 16), "float16") = R.memory.alloc_tensor(s1, 0, R.shape([4, 16]), "float16")
        k1 = cls.conv_relu(h0, w1, a1)
        d0 = R.memory.kill_tensor(a0)
        h1: R.Tensor((4, 16), "float16") = a1
        g: R.Tensor((16,), "float16") = params[2]
        b: R.Tensor((16,), "float16") = params[3]
        a2: R.Tensor((4, 16), "float16") = R.memory.alloc_tensor(s0, 0, R.shape([4, 16]), "float16")
        k2 = cls.norm(h1, g, b, a2)
        d1 = R.memory.kill_tensor(a1)
        ln: R.Tensor((4, 16), "float16") = a2
        w2: R.Tensor((16, 16), "float16") = params[0]
        a3: R.Tensor((4, 16), "float16") = R.builtin.alloc_tensor(R.shape([4, 16]), R.dtype("float16"), R.prim_value(0))
        k3 = cls.conv_relu(ln, w2, a3)
        d2 = R.memory.kill_tensor(a2)
        out: R.Tensor((4, 16), "float16") = a3
        d3 = R.memory.kill_storage(s0)
        d4 = R.memory.kill_storage(s1)
        return out


@I.ir_module
class Expected:
    @T.prim_func
    def conv_relu(a: T.Buffer((T.int64(4), T.int64(16)), "float16"), w: T.Buffer((T.int64(16), T.int64(16)), "float16"), o: T.Buffer((T.int64(4), T.int64(16)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(4), T.int64(16)):
            o[i, j] = a[i, j] * w[j, j]

    @T.prim_func
    def norm(a: T.Buffer((T.int64(4), T.int64(16)), "float16"), g: T.Buffer((T.int64(16),), "float16"), b: T.Buffer((T.int64(16),), "float16"), o: T.Buffer((T.int64(4), T.int64(16)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(4), T.int64(16)):
            o[i, j] = a[i, j] * g[j] + b[j]

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([128]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        s1: R.Object = R.memory.alloc_storage(R.shape([128]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(h0: R.Tensor((4, 16), dtype="float16"), w1: R.Tensor((16, 16), dtype="float16"), a1: R.Tensor((4, 16), dtype="float16"), a0: R.Tensor((4, 16), dtype="float16"), params: R.Tuple(R.Tensor((16, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((16,), dtype="float16"), R.Tensor((16,), dtype="float16")), s0: R.Object) -> R.Tuple(R.Tensor((4, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((4, 16), dtype="float16")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        cls.conv_relu(h0, w1, a1)
        R.memory.kill_tensor(a0)
        h1: R.Tensor((4, 16), dtype="float16") = a1
        g: R.Tensor((16,), dtype="float16") = params[2]
        b: R.Tensor((16,), dtype="float16") = params[3]
        a2: R.Tensor((4, 16), dtype="float16") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4, 16]), R.dtype("float16"), R.prim_value(0))
        cls.norm(h1, g, b, a2)
        R.memory.kill_tensor(a1)
        ln: R.Tensor((4, 16), dtype="float16") = a2
        w2: R.Tensor((16, 16), dtype="float16") = params[0]
        gv: R.Tuple(R.Tensor((4, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((4, 16), dtype="float16")) = (ln, w2, a2)
        return gv

    @R.function
    def main(data: R.Tensor((4, 16), dtype="float16"), params: R.Tuple(R.Tensor((16, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((16,), dtype="float16"), R.Tensor((16,), dtype="float16"))) -> R.Tensor((4, 16), dtype="float16"):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Expected
        w0: R.Tensor((16, 16), dtype="float16") = params[0]
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        a0: R.Tensor((4, 16), dtype="float16") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4, 16]), R.dtype("float16"), R.prim_value(0))
        cls.conv_relu(data, w0, a0)
        h0: R.Tensor((4, 16), dtype="float16") = a0
        w1: R.Tensor((16, 16), dtype="float16") = params[1]
        s1: R.Object = gv[1]
        a1: R.Tensor((4, 16), dtype="float16") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([4, 16]), R.dtype("float16"), R.prim_value(0))
        gv_1: R.Tuple(R.Tensor((4, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((4, 16), dtype="float16")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (h0, w1, a1, a0, params, s0), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((4, 16), dtype="float16"), R.Tensor((16, 16), dtype="float16"), R.Tensor((4, 16), dtype="float16")),))
        a2: R.Tensor((4, 16), dtype="float16") = gv_1[2]
        ln: R.Tensor((4, 16), dtype="float16") = gv_1[0]
        w2: R.Tensor((16, 16), dtype="float16") = gv_1[1]
        a3: R.Tensor((4, 16), dtype="float16") = R.builtin.alloc_tensor(R.shape([4, 16]), R.dtype("float16"), R.prim_value(0), R.str("global"))
        cls.conv_relu(ln, w2, a3)
        R.memory.kill_tensor(a2)
        out: R.Tensor((4, 16), dtype="float16") = a3
        R.memory.kill_storage(s0)
        R.memory.kill_storage(s1)
        return out
