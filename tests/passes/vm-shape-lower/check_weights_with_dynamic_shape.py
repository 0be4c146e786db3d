# TVM test_backend_transform_shape_lower::test_check_weights_with_dynamic_shape:
# a weight tuple is checked (its size), its static field is skipped, and its
# symbolic field is checked and stores n (slot 0).
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16, 16), "float32"), params: R.Tuple(R.Tensor((16, 16), dtype="float32"), R.Tensor(("n",), "float32"))):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        n = T.int64()
        param_0 = params[0]
        param_1 = params[1]
        return (x, param_0, param_1)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((16, 16), "float32"), params: R.Tuple(R.Tensor((16, 16), dtype="float32"), R.Tensor(("n",), "float32"))):
        n = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", params, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        _param_1: R.Tensor((n,), dtype="float32") = params[1]
        _2: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", _param_1, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(16), R.prim_value(0), R.prim_value(16), R.str(""), sinfo_args=(R.Tuple,))
        _4: R.Tuple = R.call_packed("vm.builtin.match_shape", _param_1, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=(R.Tuple,))
        param_0 = params[0]
        param_1 = params[1]
        return (x, param_0, param_1)
