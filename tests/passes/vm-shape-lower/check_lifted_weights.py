# TVM test_backend_transform_shape_lower::test_check_lifted_weights: with
# num_input = 1, params after the first are weights; a weight with a fully
# static shape is not checked at all. A function without num_input checks
# every param.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor((16, 16), dtype="float32"))) -> R.Tuple(R.Tensor((16, 16), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        return params

    @R.function
    def main(x: R.Tensor((16, 16), "float32"), param_0: R.Tensor((16, 16), dtype="float32")):
        R.func_attr({"relax.force_pure": True, "num_input": 1})
        return (x, param_0)


@I.ir_module
class Expected:
    @R.function
    def main_transform_params(params: R.Tuple(R.Tensor((16, 16), dtype="float32"))) -> R.Tuple(R.Tensor((16, 16), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", params, R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        gv: R.Tensor((16, 16), dtype="float32") = params[0]
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", gv, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", gv, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(16), R.prim_value(0), R.prim_value(16), R.str(""), sinfo_args=(R.Tuple,))
        return params

    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32"), param_0: R.Tensor((16, 16), dtype="float32")) -> R.Tuple(R.Tensor((16, 16), dtype="float32"), R.Tensor((16, 16), dtype="float32")):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(16), R.prim_value(0), R.prim_value(16), R.str(""), sinfo_args=(R.Tuple,))
        return (x, param_0)
