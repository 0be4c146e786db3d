# TVM test_backend_transform_shape_lower::test_static_fn_check: a callable
# param gets check_func_info; a static shape param gets its ndim check and an
# immediate match.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(f: R.Callable([R.Object], R.Object), y: R.Shape([1, 2])):
        R.func_attr({"relax.force_pure": True})
        return y


@I.ir_module
class Expected:
    @R.function
    def main(f: R.Callable([R.Object], R.Object), y: R.Shape([1, 2])):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_func_info", f, R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.check_shape_info", y, R.prim_value(2), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(2), R.str(""), sinfo_args=[R.Tuple()])
        return y
