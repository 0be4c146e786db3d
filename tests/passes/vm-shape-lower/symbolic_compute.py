# TVM test_backend_transform_shape_lower::test_symbolic_compute (v0.23 form):
# slots n: 0, m: 1, k: 2, k + 1: 3. The match_cast stores k, asserts m and
# cannot check k + 1 yet (code 2, no-op); a generated shape_func computes it,
# then y is matched again in full. The returned shape is rebuilt from the heap
# by make_shape (code 1 = load, 0 = immediate). The unknown dtype of y is
# checked with R.dtype("").
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", "m"], "float32"), y: R.Tensor(ndim=3)) -> R.Shape(ndim=3):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        k = T.int64()
        z = R.match_cast(y, R.Tensor([k, m, k + 1]))
        return R.shape([k + 1, m, 2])


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(3)] = H[T.int64(2)] + T.int64(1)

    @R.function
    def main(x: R.Tensor(["n", "m"], "float32"), y: R.Tensor(ndim=3)) -> R.Shape(ndim=3):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        k = T.int64()
        cls = Expected
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(4),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(3), R.dtype(""), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(2), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        _4: R.Tuple = cls.shape_func(shape_heap)
        _5: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(3), R.prim_value(3), R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(3), R.str(""), sinfo_args=[R.Tuple()])
        z: R.Tensor([k, m, k + 1]) = R.match_cast(y, R.Tensor([k, m, k + 1]))
        s: R.Shape(ndim=3) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(1), R.prim_value(1), R.prim_value(0), R.prim_value(2), sinfo_args=[R.Shape(ndim=3)])
        return s
