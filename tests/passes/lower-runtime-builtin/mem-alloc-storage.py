# TVM's test_vm_builtin_lower_mem_alloc_storage: memory allocations become
# their vm.* forms; vm.alloc_storage takes (size, device, "uint8", scope).
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor:
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        storage = R.memory.alloc_storage(R.shape([m * n * 4]), 0, "global", "uint8")
        alloc = R.memory.alloc_tensor(storage, 0, R.shape([m, n]), "float32")
        _ = R.call_packed("test.op.identity", x, alloc, sinfo_args=(R.Tensor(ndim=2, dtype="float32")))
        gv0 = alloc
        return gv0


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor:
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        storage = R.vm.alloc_storage(R.shape([m * n * 4]), R.prim_value(0), "uint8", "global")
        alloc = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([m, n]), "float32")
        _ = R.call_packed("test.op.identity", x, alloc, sinfo_args=(R.Tensor(ndim=2, dtype="float32")))
        gv0 = alloc
        return gv0
