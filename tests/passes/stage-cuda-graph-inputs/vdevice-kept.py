# x is placed on the host (a vdevice of its own): the copy would land on the default device, so it
# is not staged; y, without a vdevice, is.
# PIPELINE: stage-cuda-graph-inputs
# CONFIG: relax.backend.use_cuda_graph=true
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global")]})

    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32", vdevice="llvm:0:global"), y: R.Tensor((8, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            a = R.call_dps_packed("graft.matmul", (y, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b = R.call_dps_packed("graft.sum", (x, R.shape([0]), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 4), dtype="float32", vdevice="llvm:0:global"))
            c = R.call_dps_packed("graft.add", (a, b), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(c)
        return c


@I.ir_module
class Expected:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global")]})

    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32", vdevice="llvm:0:global"), y: R.Tensor((8, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            y_staged = R.call_dps_packed("graft.reshape", (y,), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            a = R.call_dps_packed("graft.matmul", (y_staged, w, R.dtype("float32")), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            b = R.call_dps_packed("graft.sum", (x, R.shape([0]), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((1, 4), dtype="float32", vdevice="llvm:0:global"))
            c = R.call_dps_packed("graft.add", (a, b), out_sinfo=R.Tensor((8, 4), dtype="float32"))
            R.output(c)
        return c
