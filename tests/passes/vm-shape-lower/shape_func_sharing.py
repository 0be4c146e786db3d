# graft case: generated shape_funcs are shared between functions when they are
# identical (TVM's BlockBuilder.add_func deduplicates) and otherwise get
# unique names (shape_func, shape_func1). Symbolic ShapeExprs and PrimValues
# in the body read the computed slots; a returned make_shape no longer carries
# its values statically, so the deduced return annotation is matched at run time.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def f(x: R.Tensor(["n"], "float32")):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        return R.shape([n + 1])

    @R.function
    def g(x: R.Tensor(["n"], "float32")):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        return R.shape([n + 1])

    @R.function
    def h(x: R.Tensor(["n"], "float32")):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        return R.prim_value(n * 2)


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(2),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(1)] = H[T.int64(0)] + T.int64(1)

    @T.prim_func(private=True)
    def shape_func1(H: T.Buffer((T.int64(2),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(1)] = H[T.int64(0)] * T.int64(2)

    @R.function
    def f(x: R.Tensor(["n"], "float32")) -> R.Shape(["n + 1"]):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = Expected.shape_func(shape_heap)
        s: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(1), sinfo_args=[R.Shape(ndim=1)])
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        return s

    @R.function
    def g(x: R.Tensor(["n"], "float32")) -> R.Shape(["n + 1"]):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = Expected.shape_func(shape_heap)
        s: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(1), sinfo_args=[R.Shape(ndim=1)])
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str(""), sinfo_args=[R.Tuple()])
        return s

    @R.function
    def h(x: R.Tensor(["n"], "float32")) -> R.Prim("int64"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = Expected.shape_func1(shape_heap)
        p: R.Prim(value=n * 2) = R.call_packed("vm.builtin.make_prim_value", shape_heap, R.prim_value(1), R.prim_value(1), sinfo_args=[R.Prim(value=n * 2)])
        return p
