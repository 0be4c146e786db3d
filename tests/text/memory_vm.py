# memory.*, vm.*, builtin.* and misc runtime ops, in the sugared form TVM's
# tests write (0, "global", "float32") and in the printed form
# (R.prim_value(0), R.str("global"), R.dtype("float32")).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class MemorySugared:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        storage = R.memory.alloc_storage(R.shape([24]), 0, "global", "float32")
        alloc = R.memory.alloc_tensor(storage, 0, R.shape([2, 3]), "float32")
        alloc5 = R.memory.alloc_tensor(storage, 0, R.shape([2, 3]), "float32", R.prim_value(0))
        view = R.memory.view(alloc, R.shape([6]), "float32", 0)
        view_shape = R.memory.view(alloc, shape=R.shape([3, 2]))
        view_dtype = R.memory.view(alloc, dtype="int32")
        view_none = R.memory.view(alloc)
        zero = R.memory.ensure_zero_offset(alloc)
        R.memory.kill_tensor(alloc)
        R.memory.kill_tensor(alloc5)
        R.memory.kill_storage(storage)
        return x


@I.ir_module
class MemoryPrinted:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        storage: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        alloc5: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        view: R.Tensor((6,), dtype="float32") = R.memory.view(alloc, R.shape([6]), R.dtype("float32"), R.prim_value(0))
        view_shape: R.Tensor((3, 2), dtype="float32") = R.memory.view(alloc, R.shape([3, 2]), R.tuple(), R.tuple())
        view_dtype: R.Tensor((2, 3), dtype="int32") = R.memory.view(alloc, R.tuple(), R.dtype("int32"), R.tuple())
        view_none: R.Tensor((2, 3), dtype="float32") = R.memory.view(alloc, R.tuple(), R.tuple(), R.tuple())
        zero: R.Tensor((2, 3), dtype="float32") = R.memory.ensure_zero_offset(alloc)
        R.memory.kill_tensor(alloc)
        R.memory.kill_tensor(alloc5)
        R.memory.kill_storage(storage)
        return x


@I.ir_module
class VMSugared:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32"), s: R.Shape(["n"])) -> R.Tensor((2, 3), "float32"):
        n = T.int64()
        cls = VMSugared
        storage = R.vm.alloc_storage(R.shape([24]), 0, "float32")
        storage2 = R.vm.alloc_storage(R.shape([24]), 0, "float32", "global")
        alloc = R.vm.alloc_tensor(storage, 0, R.shape([2, 3]), "float32")
        alloc_sym = R.vm.alloc_tensor(storage2, 0, s, "float32")
        R.vm.call_tir_dyn(cls.copy, (x, alloc, R.shape([n])))
        R.vm.kill_object(alloc)
        R.vm.kill_object(storage)
        return x

    @T.prim_func(private=True)
    def copy(var_A: T.handle, var_B: T.handle, n: T.int64):
        A = T.match_buffer(var_A, (T.int64(2), T.int64(3)), "float32")
        B = T.match_buffer(var_B, (T.int64(2), T.int64(3)), "float32")
        T.evaluate(0)


@I.ir_module
class VMPrinted:
    @T.prim_func(private=True)
    def copy(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(2), T.int64(3)), "float32"), n: T.int64):
        T.evaluate(0)

    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), dtype="float32"), s: R.Shape(["n"])) -> R.Tensor((2, 3), dtype="float32"):
        cls = VMPrinted
        storage: R.Object = R.vm.alloc_storage(R.shape([24]), R.prim_value(0), R.dtype("float32"), R.str("global"))
        storage2: R.Object = R.vm.alloc_storage(R.shape([24]), R.prim_value(0), R.dtype("float32"), R.str("global"))
        alloc: R.Tensor((2, 3), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), R.prim_value(0))
        alloc_sym: R.Tensor((n,), dtype="float32") = R.vm.alloc_tensor(storage2, R.prim_value(0), s, R.dtype("float32"), R.prim_value(0))
        R.vm.call_tir_dyn(cls.copy, (x, alloc, R.shape([n])))
        R.vm.kill_object(alloc)
        R.vm.kill_object(storage)
        return x


@I.ir_module
class BuiltinSugared:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        a = R.builtin.alloc_tensor(R.shape([2, 3]), "float32", 0)
        b = R.builtin.alloc_tensor(R.shape([2, 3]), "float16", 0, "global")
        c = R.builtin.alloc_tensor(R.shape([2, 3]), dtype="int8", runtime_device_index=0)
        d = R.builtin.stop_lift_params(x)
        e = R.null_value()
        return d


@I.ir_module
class BuiltinPrinted:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        a: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        b: R.Tensor((2, 3), dtype="float16") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float16"), R.prim_value(0), R.str("global"))
        c: R.Tensor((2, 3), dtype="int8") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("int8"), R.prim_value(0), R.str("global"))
        d: R.Tensor((2, 3), dtype="float32") = R.builtin.stop_lift_params(x)
        e: R.Object = R.null_value()
        return d
