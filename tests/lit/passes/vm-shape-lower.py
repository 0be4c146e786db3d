# TVM test_backend_transform_shape_lower::test_const_shape_arg, in graft's words:
# no symbolic value means a null heap; both shape params are checked (ndim 2
# and unknown ndim -1), then x is matched against immediates. An unrelated
# PrimFunc is kept as it is.
# RUN: %graft opt %s -p "vm-shape-lower{emit-err-ctx=false}" | FileCheck %s



@I.ir_module
class Module:
    @R.function
    def main(x: R.Shape([1, 2]), y: R.Shape):
        R.func_attr({"relax.force_pure": True})
        return x

    @T.prim_func
    def extra_func(H: T.Buffer((T.int64(4),), "int64")):
        H[T.int64(1)] = H[T.int64(0)] + T.int64(1)

# CHECK-LABEL: def extra_func(
# CHECK-LABEL: def main(
# CHECK: shape_heap: R.Object = R.null_value()
# CHECK: R.call_packed("vm.builtin.check_shape_info", x, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
# CHECK: R.call_packed("vm.builtin.check_shape_info", y, R.prim_value(-1), R.str(""), sinfo_args=(R.Tuple,))
# CHECK: R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
