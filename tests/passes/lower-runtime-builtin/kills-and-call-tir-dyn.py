# kill_storage and kill_tensor become vm.kill_object; vm.call_tir_dyn becomes
# the vm.builtin.call_tir_dyn packed call with the tuple's fields spread and a
# void result.
# PIPELINE: lower-runtime-builtin
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def fill(a: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        for i in range(m):
            A[i] = T.float32(0)

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Before
        storage = R.memory.alloc_storage(R.shape([4 * n]), 0, "global", "uint8")
        alloc = R.memory.alloc_tensor(storage, 0, R.shape([n]), "float32", 0)
        _ = R.vm.call_tir_dyn(cls.fill, (alloc, R.shape([n])))
        y = R.add(alloc, x)
        _1 = R.memory.kill_tensor(alloc)
        _2 = R.memory.kill_storage(storage)
        return y


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def fill(a: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        for i in range(m):
            A[i] = T.float32(0)

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Expected
        storage = R.vm.alloc_storage(R.shape([4 * n]), R.prim_value(0), "uint8", "global")
        alloc = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([n]), "float32", R.prim_value(0))
        _ = R.call_packed("vm.builtin.call_tir_dyn", cls.fill, alloc, R.shape([n]), sinfo_args=(R.Tuple(),))
        y = R.add(alloc, x)
        _1 = R.vm.kill_object(alloc)
        _2 = R.vm.kill_object(storage)
        return y
