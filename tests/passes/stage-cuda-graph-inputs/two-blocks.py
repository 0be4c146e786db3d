# x is read in two blocks: one copy cannot serve both (static-plan-block-memory plans a block's
# tensors only), so it is not staged; y, read in one, is. Capture vars already named stay first.
# PIPELINE: stage-cuda-graph-inputs
# CONFIG: relax.backend.use_cuda_graph=true
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"num_input": 2, "tir_var_upper_bound": {"n": 64, "m": 32}, "relax.rewrite_cuda_graph.capture_symbolic_vars": ["k"]})
        a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        with R.dataflow():
            b = R.call_dps_packed("graft.matmul", (y, w, R.dtype("float32")), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            c = R.call_dps_packed("graft.add", (b, y), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            d = R.call_dps_packed("graft.sum", (x, R.shape([0]), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 4), dtype="float32"))
            e = R.call_dps_packed("graft.add", (c, d), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            R.output(e)
        return e


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        R.func_attr({"num_input": 2, "tir_var_upper_bound": {"n": 64, "m": 32}, "relax.rewrite_cuda_graph.capture_symbolic_vars": ["k", "m"]})
        a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        with R.dataflow():
            y_staged = R.call_dps_packed("graft.reshape", (y,), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            b = R.call_dps_packed("graft.matmul", (y_staged, w, R.dtype("float32")), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            c = R.call_dps_packed("graft.add", (b, y_staged), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            d = R.call_dps_packed("graft.sum", (x, R.shape([0]), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 4), dtype="float32"))
            e = R.call_dps_packed("graft.add", (c, d), out_sinfo=R.Tensor((m, 4), dtype="float32"))
            R.output(e)
        return e
