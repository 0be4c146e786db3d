# TVM test_backend_transform_shape_lower::test_return_match_check: the
# returned y is an R.Object while the annotation is a tuple, so the return is
# checked at run time through vm.builtin.tuple_getitem, and its tensor's
# shape is asserted against the heap.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", "m"], "float32"), y: R.Object) -> R.Tuple(R.Tensor(["n", "m"], "float32")):
        R.func_attr({"relax.force_pure": True})
        return y


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(["n", "m"], "float32"), y: R.Object) -> R.Tuple(R.Tensor(["n", "m"], "float32")):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", y, R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        y1: R.Object = R.call_packed("vm.builtin.tuple_getitem", y, R.prim_value(0), sinfo_args=[R.Object])
        _3: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", y1, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _4: R.Tuple = R.call_packed("vm.builtin.match_shape", y1, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(3), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        return y
