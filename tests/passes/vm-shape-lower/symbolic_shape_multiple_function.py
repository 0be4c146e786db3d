# TVM test_backend_transform_shape_lower::test_symbolic_shape_multiple_function:
# each function has its own heap and numbers its slots from its own params
# (fn1: m 0, n 1; fn2: n 0, m 1).
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def fn1(A: R.Tensor(("m", "n"), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        return A

    @R.function
    def fn2(A: R.Tensor(("n", "m"), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        m = T.int64()
        return A


@I.ir_module
class Expected:
    @R.function
    def fn1(A: R.Tensor(("m", "n"), dtype="float32")) -> R.Tensor(("m", "n"), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", A, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", A, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        return A

    @R.function
    def fn2(A: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        m = T.int64()
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _2: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", A, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", A, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        return A
