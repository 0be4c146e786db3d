# graft case (TVM's matcher has no case for it and stops with "Cannot handle
# Tensor shape pattern"): a match_cast to a tensor whose shape is held in a
# var. The tensor info is checked as usual (here y's static type already
# satisfies it, so no check_tensor_info); when the shape var's own struct
# info knows its values (s = [n, m + 1]), the tensor's shape is matched
# against them like a ShapeExpr pattern (assert n, assert the computed
# m + 1); a shape var without values (t) adds no shape match. The match_cast
# refers to the new binding of s, which became a make_shape.
# PIPELINE: vm-shape-lower{emit-err-ctx=false}
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", "m"], "float32"), y: R.Tensor(ndim=2, dtype="float32"), t: R.Shape(ndim=2)) -> R.Tensor(ndim=2, dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        m = T.int64()
        s = R.shape([n, m + 1])
        z = R.match_cast(y, R.Tensor(s, "float32"))
        w = R.match_cast(z, R.Tensor(t, "float32"))
        return w


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(3),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(2)] = H[T.int64(1)] + T.int64(1)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(dtype="float32", ndim=2), t: R.Shape(ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(3),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_shape_info", t, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        cls.shape_func(shape_heap)
        s: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(2), sinfo_args=(R.Shape(ndim=2),))
        R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(3), R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        z: R.Tensor(s, dtype="float32") = R.match_cast(y, R.Tensor(s, dtype="float32"))
        w: R.Tensor(t, dtype="float32") = R.match_cast(z, R.Tensor(t, dtype="float32"))
        return w
