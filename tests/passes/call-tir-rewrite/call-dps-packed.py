# TVM's test_call_dps_packed_rewrite: call_dps_packed works like call_tir with
# the packed function as callee.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def foo(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        gv0 = R.call_dps_packed("test.op.identity", (x,), out_sinfo=R.Tensor((m, n), dtype="float32"))
        return gv0


@I.ir_module
class Expected:
    @R.function
    def foo(x: R.Tensor(("m", "n"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        n = T.int64()
        alloc = R.builtin.alloc_tensor(R.shape([m, n]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((m, n), dtype="float32"),))
        _ = R.call_packed("test.op.identity", x, alloc)
        gv0 = alloc
        return gv0
