# basic.py through memory planning into rewrite-cuda-graph: the copy's storage is planned at the
# upper bound (64 x 4 float32 = 1024 bytes) and lifted into cuda_graph_alloc; the copy reads x and
# stays before the region; the matmul reads only static values and is captured, keyed by n; the
# add writes the result's storage (the caller's) and stays outside.
# PIPELINE: stage-cuda-graph-inputs,to-non-dataflow,remove-purity-checking,call-tir-rewrite,static-plan-block-memory,rewrite-cuda-graph
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 64}})
        with R.dataflow():
            a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            b = R.call_dps_packed("graft.add", (a, x), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([1024]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([1024]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object) = (storage, storage_1)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(x_staged: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), alloc: R.Tensor(("n", 4), dtype="float32"), shape_expr: R.Shape(["n"])) -> R.Tuple(R.Tensor(("n", 4), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        __1: R.Object = R.call_packed("graft.matmul", x_staged, w, R.dtype("float32"), alloc)
        a: R.Tensor((n, 4), dtype="float32") = alloc
        gv: R.Tuple(R.Tensor((n, 4), dtype="float32")) = (a,)
        return gv

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 64}, "relax.rewrite_cuda_graph.capture_symbolic_vars": ["n"], "relax.force_pure": True})
        cls = Expected
        gv: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
        storage: R.Object = gv[0]
        alloc: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        __1: R.Object = R.call_packed("graft.reshape", x, alloc)
        x_staged: R.Tensor((n, 4), dtype="float32") = alloc
        storage_1: R.Object = gv[1]
        alloc_1: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        gv_1: R.Tuple(R.Tensor((n, 4), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (x_staged, w, alloc_1, R.shape([n])), R.prim_value(0), R.shape([n])), sinfo_args=(R.Tuple(R.Tensor((n, 4), dtype="float32")),))
        a: R.Tensor((n, 4), dtype="float32") = gv_1[0]
        alloc_2: R.Tensor((n, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((n, 4), dtype="float32"),))
        __2: R.Object = R.call_packed("graft.add", a, x_staged, alloc_2)
        b: R.Tensor((n, 4), dtype="float32") = alloc_2
        return b
