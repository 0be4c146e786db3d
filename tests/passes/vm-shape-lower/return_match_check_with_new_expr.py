# TVM test_backend_transform_shape_lower::test_return_match_check_with_new_expr:
# the return annotation needs n * n (slot 1), computed by a shape_func right
# after the parameter matches; the Object-typed result is then checked
# against it.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", "n"], "float32")) -> R.Tensor(["n * n"], "float32"):
        R.func_attr({"relax.force_pure": True})
        out = R.call_packed("flatten_matrix", x, sinfo_args=R.Object)
        return out


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(["n", "n"], "float32")) -> R.Tensor(["n * n"], "float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(3), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = Expected.shape_func(shape_heap)
        out: R.Object = R.call_packed("flatten_matrix", x, sinfo_args=R.Object)
        _3: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", out, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _4: R.Tuple = R.call_packed("vm.builtin.match_shape", out, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        return out

    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(2),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(1)] = H[T.int64(0)] * H[T.int64(0)]
