# Constant shapes need no bound. mask is read only by the binding of the result, whose storage is
# the caller's and never captured: it is not copied. x is.
# PIPELINE: stage-cuda-graph-inputs
# CONFIG: relax.backend.use_cuda_graph=true
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32"), mask: R.Tensor((8, 4), dtype="bool"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b = R.call_dps_packed("graft.where", (mask, x, a), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32"), mask: R.Tensor((8, 4), dtype="bool"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            x_staged = R.call_dps_packed("graft.reshape", (x,), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            a = R.call_dps_packed("graft.matmul", (x_staged, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b = R.call_dps_packed("graft.where", (mask, x_staged, a), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(b)
        return b
