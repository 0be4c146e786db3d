# The activation input x (bounded by tir_var_upper_bound) is copied at the start of its block
# and the block reads the copy; its symbolic n joins the capture's symbolic vars. The weight w is
# static already and stays as it is.
# PIPELINE: stage-cuda-graph-inputs
# CONFIG: relax.backend.use_cuda_graph=true
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
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 64}, "relax.rewrite_cuda_graph.capture_symbolic_vars": ["n"]})
        with R.dataflow():
            x_staged = R.call_dps_packed("graft.reshape", (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            a = R.call_dps_packed("graft.matmul", (x_staged, w, R.dtype("float32")), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            b = R.call_dps_packed("graft.add", (a, x_staged), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(b)
        return b
