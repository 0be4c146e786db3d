# TVM test_backend_transform_shape_lower::test_simple_symbolic_shape: a heap
# of two slots (n: 0, m: 1); the param match stores both (code 1) and asserts
# the constant middle dim (code 0).
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", 2, "m"], "float32")):
        R.func_attr({"relax.force_pure": True})
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(["n", 2, "m"], "float32")):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(3), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(2), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        return x
