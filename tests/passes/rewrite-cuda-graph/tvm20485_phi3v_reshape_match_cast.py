# Regression, TVM #20485, the Phi-3.5-vision image embedding: a static
# reshape lifted into the open region and then match_cast to the symbolic crop grid.
# The match_cast stays in main, so lv383 must be an output of the region and be
# unpacked before it; without the rule main reads an undefined lv383 and
# verify-each fails ("var 'lv383' is used in function 'main' but not defined").
# PIPELINE: rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def gelu(a: T.Buffer((T.int64(1), T.int64(576), T.int64(64)), "float16"), o: T.Buffer((T.int64(1), T.int64(576), T.int64(64)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j, k in T.grid(T.int64(1), T.int64(576), T.int64(64)):
            o[i, j, k] = a[i, j, k] * T.float16(0.5)

    @R.function
    def main(x: R.Tensor((1, 576, 64), "float16"), w: R.Tensor((64, 64), "float16")) -> R.Tensor(ndim=3, dtype="float16"):
        h = T.int64()
        v = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Before
        s0: R.Object = R.memory.alloc_storage(R.shape([73728]), 0, "global", "float16")
        a0: R.Tensor((1, 576, 64), "float16") = R.memory.alloc_tensor(s0, 0, R.shape([1, 576, 64]), "float16")
        k0 = R.call_packed("matmul", x, w, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = R.memory.alloc_storage(R.shape([73728]), 0, "global", "float16")
        a1: R.Tensor((1, 576, 64), "float16") = R.memory.alloc_tensor(s1, 0, R.shape([1, 576, 64]), "float16")
        k1 = cls.gelu(a0, a1)
        lv383: R.Tensor((24, 24, 64), "float16") = R.reshape(a1, R.shape([24, 24, 64]))
        lv384 = R.match_cast(lv383, R.Tensor((h, v, 64), "float16"))
        crop: R.Tensor((h, v, 64), "float16") = R.builtin.alloc_tensor(R.shape([h, v, 64]), R.dtype("float16"), R.prim_value(0))
        k2 = R.call_packed("crop", lv384, crop, sinfo_args=(R.Tuple,))
        return crop


@I.ir_module
class Expected:
    @T.prim_func
    def gelu(a: T.Buffer((T.int64(1), T.int64(576), T.int64(64)), "float16"), o: T.Buffer((T.int64(1), T.int64(576), T.int64(64)), "float16")):
        T.func_attr({"tir.noalias": True})
        for i, j, k in T.grid(T.int64(1), T.int64(576), T.int64(64)):
            o[i, j, k] = a[i, j, k] * T.float16(0.5)

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([73728]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        s1: R.Object = R.memory.alloc_storage(R.shape([73728]), R.prim_value(0), R.str("global"), R.dtype("float16"))
        gv: R.Tuple(R.Object, R.Object) = (s0, s1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(a0: R.Tensor((1, 576, 64), dtype="float16"), a1: R.Tensor((1, 576, 64), dtype="float16")) -> R.Tuple(R.Tensor((24, 24, 64), dtype="float16")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        cls.gelu(a0, a1)
        lv383: R.Tensor((24, 24, 64), dtype="float16") = R.reshape(a1, R.shape([24, 24, 64]))
        gv: R.Tuple(R.Tensor((24, 24, 64), dtype="float16")) = (lv383,)
        return gv

    @R.function
    def main(x: R.Tensor((1, 576, 64), dtype="float16"), w: R.Tensor((64, 64), dtype="float16")) -> R.Tensor(dtype="float16", ndim=3):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Expected
        h = T.int64()
        v = T.int64()
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        s0: R.Object = gv[0]
        a0: R.Tensor((1, 576, 64), dtype="float16") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([1, 576, 64]), R.dtype("float16"), R.prim_value(0))
        R.call_packed("matmul", x, w, a0, sinfo_args=(R.Tuple,))
        s1: R.Object = gv[1]
        a1: R.Tensor((1, 576, 64), dtype="float16") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([1, 576, 64]), R.dtype("float16"), R.prim_value(0))
        gv_1: R.Tuple(R.Tensor((24, 24, 64), dtype="float16")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (a0, a1), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((24, 24, 64), dtype="float16")),))
        lv383: R.Tensor((24, 24, 64), dtype="float16") = gv_1[0]
        lv384: R.Tensor((h, v, 64), dtype="float16") = R.match_cast(lv383, R.Tensor((h, v, 64), dtype="float16"))
        crop: R.Tensor((h, v, 64), dtype="float16") = R.builtin.alloc_tensor(R.shape([h, v, 64]), R.dtype("float16"), R.prim_value(0), R.str("global"))
        R.call_packed("crop", lv384, crop, sinfo_args=(R.Tuple,))
        return crop
