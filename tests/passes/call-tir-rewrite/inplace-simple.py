# TVM's test_call_tir_inplace_simple: the only output is argument 0, so
# nothing is allocated and the call's value is the argument itself.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func
    def zeros(A: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = T.int32(0)

    @R.function
    def foo(x: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        gv0 = R.call_tir_inplace(cls.zeros, (x,), inplace_indices=[0], out_sinfo=R.Tensor((2, 3), dtype="int32"))
        return gv0


@I.ir_module
class Expected:
    @T.prim_func
    def zeros(A: T.Buffer((2, 3), "int32")):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            A[i0, i1] = T.int32(0)

    @R.function
    def foo(x: R.Tensor((2, 3), "int32")) -> R.Tensor((2, 3), "int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        _ = cls.zeros(x)
        gv0 = x
        return gv0
