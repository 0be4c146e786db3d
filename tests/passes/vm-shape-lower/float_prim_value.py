# A float constant in R.Prim(value=...) (parameter, body, return) needs no
# heap slot and no match_prim_value (the heap and the match hold int64s):
# the parameter gets its dtype check only, and the constant PrimValue stays.
# Before the fix, the constant took a heap slot that nothing computed, and
# the build stopped with "PrimExpr T.float64(0.5) ... is needed before its
# variables are known".
# PIPELINE: vm-shape-lower{emit-err-ctx=false}

@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n"], "float32"), p: R.Prim(value=T.float64(0.5))) -> R.Tuple(R.Tensor(["n"], "float32"), R.Prim(value=T.float64(0.5))):
        R.func_attr({"relax.force_pure": True})
        h = R.prim_value(T.float64(0.5))
        return (x, h)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(["n"], "float32"), p: R.Prim(value=T.float64(0.5))) -> R.Tuple(R.Tensor(["n"], "float32"), R.Prim(value=T.float64(0.5))):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(ndim=1, dtype="int64") = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=[R.Tensor(ndim=1, dtype="int64")])
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=[R.Tuple()])
        _1: R.Tuple = R.call_packed("vm.builtin.check_prim_value_info", p, R.dtype("float64"), R.str(""), sinfo_args=[R.Tuple()])
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=[R.Tuple()])
        h: R.Prim(value=T.float64(0.5)) = R.prim_value(T.float64(0.5))
        return (x, h)
