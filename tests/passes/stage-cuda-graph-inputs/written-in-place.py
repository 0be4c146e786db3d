# x is written in place: the write must reach the caller's tensor, not a copy, so x is not staged
# although it is bounded and read by a kernel.
# PIPELINE: stage-cuda-graph-inputs
# CONFIG: relax.backend.use_cuda_graph=true
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b = R.call_inplace_packed("my_scale_in_place", x, w, inplace_indices=[0], sinfo_args=R.Tensor((8, 4), dtype="float32"))
            c = R.call_dps_packed("graft.add", (a, b), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            a = R.call_dps_packed("graft.matmul", (x, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b: R.Tensor((8, 4), dtype="float32") = R.call_inplace_packed("my_scale_in_place", x, w, inplace_indices=[0], sinfo_args=(R.Tensor((8, 4), dtype="float32"),))
            c = R.call_dps_packed("graft.add", (a, b), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(c)
        return c
