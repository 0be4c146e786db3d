# The device index and storage scope of the allocation go to the storage; the
# device index also becomes the tensor's fifth argument. Allocations in if
# branches are lowered in place.
# PIPELINE: lower-alloc-tensor
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global")]})

    @R.function
    def main(c: R.Prim("bool")) -> R.Tensor((8,), "float16", vdevice="cuda:0:global"):
        if c:
            r: R.Tensor((8,), "float16", vdevice="cuda:0:global") = R.builtin.alloc_tensor(R.shape([8]), "float16", 1, "global")
        else:
            r: R.Tensor((8,), "float16", vdevice="cuda:0:global") = R.builtin.alloc_tensor(R.shape([8]), "float16", 1, "global")
        return r


@I.ir_module
class Expected:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global")]})

    @R.function
    def main(c: R.Prim("bool")) -> R.Tensor((8,), "float16", vdevice="cuda:0:global"):
        if c:
            s0 = R.memory.alloc_storage(R.shape([16]), 1, "global", "uint8")
            r: R.Tensor((8,), "float16", vdevice="cuda:0:global") = R.memory.alloc_tensor(s0, 0, R.shape([8]), "float16", 1)
        else:
            s1 = R.memory.alloc_storage(R.shape([16]), 1, "global", "uint8")
            r: R.Tensor((8,), "float16", vdevice="cuda:0:global") = R.memory.alloc_tensor(s1, 0, R.shape([8]), "float16", 1)
        return r
