# kill_storage and kill_tensor become vm.kill_object; vm.call_tir_dyn becomes
# the vm.builtin.call_tir_dyn packed call with the tuple's fields spread and a
# void result.
# RUN: %graft opt %s -p lower-runtime-builtin | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(a: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        for i in range(m):
            A[i] = T.float32(0)

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        storage = R.memory.alloc_storage(R.shape([4 * n]), 0, "global", "uint8")
        alloc = R.memory.alloc_tensor(storage, 0, R.shape([n]), "float32", 0)
        _ = R.vm.call_tir_dyn(cls.fill, (alloc, R.shape([n])))
        y = R.add(alloc, x)
        _1 = R.memory.kill_tensor(alloc)
        _2 = R.memory.kill_storage(storage)
        return y

# CHECK-LABEL: def fill(
# CHECK-LABEL: def main(
# CHECK: storage: R.Object = R.vm.alloc_storage(R.shape([4 * n]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
# CHECK: alloc: R.Tensor((n,), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([n]), R.dtype("float32"), R.prim_value(0))
# CHECK: R.call_packed("vm.builtin.call_tir_dyn", cls.fill, alloc, R.shape([n]), sinfo_args=(R.Tuple,))
# CHECK: R.vm.kill_object(alloc)
# CHECK: R.vm.kill_object(storage)
