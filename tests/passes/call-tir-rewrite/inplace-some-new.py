# TVM's test_call_tir_inplace_some_new: output 0 reuses x, outputs 1 and 2 are
# allocated and appended to the call (only the new ones).
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def copy(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32"), C: T.Buffer((2, 3), "int32"), out1: T.Buffer((2, 3), "int32"), out2: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = C[i0, i1]
            out1[i0, i1] = C[i0, i1]
            out2[i0, i1] = C[i0, i1]

    @R.function
    def foo(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32"), z: R.Tensor((2, 3), "int32")) -> R.Tuple(R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        gv0 = R.call_tir_inplace(cls.copy, (x, y, z), inplace_indices=[0, -1, -1], out_sinfo=[R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32")])
        return gv0


@I.ir_module
class Expected:
    @T.prim_func
    def copy(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32"), C: T.Buffer((2, 3), "int32"), out1: T.Buffer((2, 3), "int32"), out2: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = C[i0, i1]
            out1[i0, i1] = C[i0, i1]
            out2[i0, i1] = C[i0, i1]

    @R.function
    def foo(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32"), z: R.Tensor((2, 3), "int32")) -> R.Tuple(R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        gv1: R.Tensor((2, 3), dtype="int32") = R.emit_with_sinfo("relax.builtin.alloc_tensor", (R.shape([2, 3]), R.dtype("int32"), R.prim_value(0), R.str("global")), (R.Tensor((2, 3), dtype="int32"),))
        gv2: R.Tensor((2, 3), dtype="int32") = R.emit_with_sinfo("relax.builtin.alloc_tensor", (R.shape([2, 3]), R.dtype("int32"), R.prim_value(0), R.str("global")), (R.Tensor((2, 3), dtype="int32"),))
        _ = cls.copy(x, y, z, gv1, gv2)
        gv0 = (x, gv1, gv2)
        return gv0
