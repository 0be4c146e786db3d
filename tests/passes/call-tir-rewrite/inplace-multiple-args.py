# TVM's test_call_tir_inplace_multiple_args: both outputs reuse arguments
# (0 and 1); the value is the tuple of those arguments.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def copy(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32"), C: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = C[i0, i1]
            B[i0, i1] = C[i0, i1]

    @R.function
    def foo(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32"), z: R.Tensor((2, 3), "int32")) -> R.Tuple(R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        gv0 = R.call_tir_inplace(cls.copy, (x, y, z), inplace_indices=[0, 1], out_sinfo=[R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32")])
        return gv0


@I.ir_module
class Expected:
    @T.prim_func
    def copy(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32"), C: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = C[i0, i1]
            B[i0, i1] = C[i0, i1]

    @R.function
    def foo(x: R.Tensor((2, 3), "int32"), y: R.Tensor((2, 3), "int32"), z: R.Tensor((2, 3), "int32")) -> R.Tuple(R.Tensor((2, 3), "int32"), R.Tensor((2, 3), "int32")):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        _ = cls.copy(x, y, z)
        gv0 = (x, y)
        return gv0
