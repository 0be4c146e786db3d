# TVM test_backend_transform_shape_lower::test_update_symbolic_vars_in_match_cast_rhs
# (as v0.23 runs it): the R.Prim(value=n) param is checked and stores n with
# match_prim_value; the symbolic R.shape([n]) is rebuilt by make_shape and
# matched against the match_cast target, which stores m; the returned
# R.prim_value(m) becomes make_prim_value with sinfo_args=[R.Prim(value=m)].
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(arg_prim_value: R.Prim(value="n")):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        shape = R.shape([n])
        m = T.int64()
        _ = R.match_cast(shape, R.Shape([m]))
        return R.prim_value(m)


@I.ir_module
class Expected:
    @R.function
    def main(arg_prim_value: R.Prim(value="n")) -> R.Prim("int64"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        m = T.int64()
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _1: R.Tuple = R.call_packed("vm.builtin.check_prim_value_info", arg_prim_value, R.dtype("int64"), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.match_prim_value", arg_prim_value, shape_heap, R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        shape: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=[R.Shape(ndim=1)])
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", shape, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        _: R.Shape([m]) = R.match_cast(shape, R.Shape([m]))
        gv: R.Prim(value=m) = R.call_packed("vm.builtin.make_prim_value", shape_heap, R.prim_value(1), R.prim_value(1), sinfo_args=[R.Prim(value=m)])
        return gv
