# v0.23: a call_tir with tir_vars and an inline argument tuple becomes
# R.vm.call_tir_dyn(callee, (args..., outputs..., tir_vars)).
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def fill(a: T.handle, b: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        B = T.match_buffer(b, (m,), "float32")
        for i in range(m):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        cls = Before
        y = R.call_tir(cls.fill, (x,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        return y


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def fill(a: T.handle, b: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        B = T.match_buffer(b, (m,), "float32")
        for i in range(m):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        cls = Expected
        alloc = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((n,), dtype="float32"),))
        _ = R.vm.call_tir_dyn(cls.fill, (x, alloc, R.shape([n])))
        y = alloc
        return y
