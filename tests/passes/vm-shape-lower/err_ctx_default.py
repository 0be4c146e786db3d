# graft case: emit-err-ctx defaults to true as in TVM, so every check and
# match carries an ErrorContext string naming the function and the param, the
# match_cast or the return, with the struct info in script form.
# PIPELINE: vm-shape-lower

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n"], "float32"), y: R.Object) -> R.Shape(["n"]):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        z = R.match_cast(y, R.Tensor([n], "float32"))
        s = R.call_packed("make_it", z, sinfo_args=R.Object)
        return s


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(["n"], "float32"), y: R.Object) -> R.Shape(["n"]):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(match_cast, struct_info=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=[R.Tuple()])
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str("ErrorContext(match_cast, struct_info=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=[R.Tuple()])
        z: R.Tensor((n,), "float32") = R.match_cast(y, R.Tensor([n], "float32"))
        s: R.Object = R.call_packed("make_it", z, sinfo_args=R.Object)
        _4: R.Tuple = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(1), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([n])) "), sinfo_args=[R.Tuple()])
        _5: R.Tuple = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([n])) "), sinfo_args=[R.Tuple()])
        return s
