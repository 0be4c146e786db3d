# An output on a vdevice is allocated with that vdevice's index in the
# module's list and its memory scope.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global")]})

    @R.function
    def main(x: R.Tensor((4,), "float32", vdevice="cuda:0:global")) -> R.Tensor((4,), "float32", vdevice="cuda:0:global"):
        R.func_attr({"relax.force_pure": True})
        y = R.call_dps_packed("test.copy", (x,), out_sinfo=R.Tensor((4,), "float32", vdevice="cuda:0:global"))
        return y


@I.ir_module
class Expected:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global")]})

    @R.function
    def main(x: R.Tensor((4,), "float32", vdevice="cuda:0:global")) -> R.Tensor((4,), "float32", vdevice="cuda:0:global"):
        R.func_attr({"relax.force_pure": True})
        alloc: R.Tensor((4,), dtype="float32", vdevice="cuda:0:global") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(1), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32", vdevice="cuda:0:global"),))
        _ = R.call_packed("test.copy", x, alloc)
        y = alloc
        return y
