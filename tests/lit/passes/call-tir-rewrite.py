# TVM's test_call_tir_rewrite: the output is allocated with the symbolic shape
# of out_sinfo, then the PrimFunc runs with the output appended; the call's
# var is bound to the allocation.
# RUN: %graft opt %s -p call-tir-rewrite | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func
    def exp(a: T.handle, b: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(a, (m, n), "float32")
        B = T.match_buffer(b, (m, n), "float32")
        T.evaluate(0)

    @R.function
    def foo(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        cls = Module
        gv0 = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((m, n), dtype="float32"))
        return gv0

# CHECK-LABEL: def exp(
# CHECK-LABEL: def foo(
# CHECK: alloc: R.Tensor((m, n), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((m, n), dtype="float32"),))
# CHECK: cls.exp(x, alloc)
# CHECK: gv0: R.Tensor((m, n), dtype="float32") = alloc
