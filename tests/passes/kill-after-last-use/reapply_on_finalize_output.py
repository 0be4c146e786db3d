# TVM #20267, second half: re-applying kill-after-last-use to the
# output of the finalize pipeline, where vm-shape-lower bound
# `shape_heap = R.null_value()` (no shape slots needed), adds no kill of it.
# Before is finalize output written by hand; every other value already has
# its kill, so the pass changes nothing. Without the rule the pass adds
# `_ = R.vm.kill_object(shape_heap)` after the match_shape call.
# tests/transforms/KillAfterLastUseFinalizeTest.cpp runs the real
# `finalize,kill-after-last-use` once every pass of finalize is registered.
# PIPELINE: kill-after-last-use
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(x: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        R.func_attr({"global_symbol": "main", "num_input": 1})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(4), R.str(""), sinfo_args=(R.Tuple,))
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((1, 4), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([1, 4]), R.dtype("float32"), R.prim_value(0))
        _2: R.Tuple = R.vm.kill_object(storage)
        _3: R.Tuple = R.call_packed("add_one", x, alloc, sinfo_args=(R.Tuple,))
        storage1: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc1: R.Tensor((1, 4), dtype="float32") = R.vm.alloc_tensor(storage1, R.prim_value(0), R.shape([1, 4]), R.dtype("float32"), R.prim_value(0))
        _4: R.Tuple = R.vm.kill_object(storage1)
        _5: R.Tuple = R.call_packed("add_two", alloc, alloc1, sinfo_args=(R.Tuple,))
        _6: R.Tuple = R.vm.kill_object(alloc)
        return alloc1


@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(x: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        R.func_attr({"global_symbol": "main", "num_input": 1})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(4), R.str(""), sinfo_args=(R.Tuple,))
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((1, 4), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([1, 4]), R.dtype("float32"), R.prim_value(0))
        _2: R.Tuple = R.vm.kill_object(storage)
        _3: R.Tuple = R.call_packed("add_one", x, alloc, sinfo_args=(R.Tuple,))
        storage1: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc1: R.Tensor((1, 4), dtype="float32") = R.vm.alloc_tensor(storage1, R.prim_value(0), R.shape([1, 4]), R.dtype("float32"), R.prim_value(0))
        _4: R.Tuple = R.vm.kill_object(storage1)
        _5: R.Tuple = R.call_packed("add_two", alloc, alloc1, sinfo_args=(R.Tuple,))
        _6: R.Tuple = R.vm.kill_object(alloc)
        return alloc1
