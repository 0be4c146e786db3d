# TVM test_backend_transform_shape_lower::test_tuple_handling: a nested tuple
# param is checked recursively (check_tuple_info, then each field through a
# tuple access bound once), all checks before all matches. Slots n: 0, m: 1,
# k: 2; the second tensor asserts n from the heap (code 3) and stores k.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tuple(R.Tensor(["n", "m"], "float32"), R.Tuple(R.Shape, R.Tensor(["n", "k"], "int32")))):
        R.func_attr({"relax.force_pure": True})
        return x


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tuple(R.Tensor(["n", "m"], "float32"), R.Tuple(R.Shape, R.Tensor(["n", "k"], "int32")))):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(3),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", x, R.prim_value(2), R.str(""), sinfo_args=[R.Tuple()])
        t0: R.Tensor((n, m), "float32") = x[0]
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", t0, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        t1: R.Tuple(R.Shape, R.Tensor((n, k), "int32")) = x[1]
        _2: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", t1, R.prim_value(2), R.str(""), sinfo_args=[R.Tuple()])
        t1x0: R.Shape = t1[0]
        _3: R.Tuple = R.call_packed("vm.builtin.check_shape_info", t1x0, R.prim_value(-1), R.str(""), sinfo_args=[R.Tuple()])
        t1x1: R.Tensor((n, k), "int32") = t1[1]
        _4: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", t1x1, R.prim_value(2), R.dtype("int32"), R.str(""), sinfo_args=[R.Tuple()])
        _5: R.Tuple = R.call_packed("vm.builtin.match_shape", t0, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        _6: R.Tuple = R.call_packed("vm.builtin.match_shape", t1x1, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(1), R.prim_value(2), R.str(""), sinfo_args=[R.Tuple()])
        return x
