# to_vdevice becomes vm.builtin.to_device(x, device type, device id, scope):
# CUDA is DLPack device type 2.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 1, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32", vdevice="llvm:0:global")) -> R.Tensor((4,), "float32", vdevice="cuda:1:global"):
        y = R.to_vdevice(x, "cuda:1:global")
        return y


@I.ir_module
class Expected:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 1, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32", vdevice="llvm:0:global")) -> R.Tensor((4,), "float32", vdevice="cuda:1:global"):
        y = R.call_packed("vm.builtin.to_device", x, R.prim_value(2), R.prim_value(1), R.str("global"), sinfo_args=(R.Tensor((4,), "float32", vdevice="cuda:1:global"),))
        return y
