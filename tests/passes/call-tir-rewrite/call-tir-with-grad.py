# R.call_tir_with_grad lowers as R.call_tir does: the gradient's name and
# kwargs only matter to TVM's Gradient pass, which graft does not run.
# PIPELINE: call-tir-rewrite
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def scale(a: T.handle, b: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        B = T.match_buffer(b, (m,), "float32")
        for i in range(m):
            B[i] = A[i] * T.float32(3)

    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        cls = Before
        y = R.call_tir_with_grad(cls.scale, (x,), out_sinfo=R.Tensor((n,), "float32"), te_grad_name="scale_grad", te_grad_kwargs={"k": 3.0}, tir_vars=R.shape([n]))
        return y

    @R.function
    def static(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        z = R.call_tir_with_grad(cls.double, (x,), out_sinfo=R.Tensor((4,), "float32"), te_grad_name="double_grad")
        return z


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def scale(a: T.handle, b: T.handle, m: T.int64):
        A = T.match_buffer(a, (m,), "float32")
        B = T.match_buffer(b, (m,), "float32")
        for i in range(m):
            B[i] = A[i] * T.float32(3)

    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + A[i]

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"relax.force_pure": True})
        n = T.int64()
        cls = Expected
        alloc = R.builtin.alloc_tensor(R.shape([n]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((n,), dtype="float32"),))
        _ = R.vm.call_tir_dyn(cls.scale, (x, alloc, R.shape([n])))
        y = alloc
        return y

    @R.function
    def static(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        alloc = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        _ = cls.double(x, alloc)
        z = alloc
        return z
