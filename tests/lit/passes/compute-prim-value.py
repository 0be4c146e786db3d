# TVM's TestPrimValueInBranchCondition: an `if` on R.prim_value(N % 16 == 0)
# gets the computed condition bound right before the `if`.
# RUN: %graft opt %s -p compute-prim-value | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        if R.prim_value(N % 16 == 0):
            out = R.call_pure_packed("fast_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        else:
            out = R.call_pure_packed("slow_non_vectorized_impl", A, sinfo_args=[R.Tensor([N])])
        return out

# CHECK: @T.prim_func(private=True)
# CHECK-LABEL: def compute_symbolic_expr(
# CHECK: T.func_attr({"tir.is_host_func": True})
# CHECK: T.ret(N % T.int64(16) == T.int64(0))
# CHECK-LABEL: def main(
# CHECK: cls = Module
# CHECK: gv: R.Prim("bool") = cls.compute_symbolic_expr(R.prim_value(N))
# CHECK: if gv:
