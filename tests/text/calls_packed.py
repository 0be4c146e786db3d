# Call forms: call_tir (one/several outputs, tir_vars, single arg), call_tir_inplace,
# call_dps_packed, call_packed, call_pure_packed, call_inplace_packed,
# call_builtin_with_ctx, closures, R.emit_with_sinfo, ty_args=, direct calls.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Calls:
    @T.prim_func(private=True)
    def copy(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi]

    @T.prim_func(private=True)
    def split2(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(2),), "float32"), C: T.Buffer((T.int64(2),), "float32")):
        for i in range(2):
            with T.block("BC"):
                vi = T.axis.spatial(2, i)
                B[vi] = A[vi]
                C[vi] = A[vi + 2]

    @T.prim_func(private=True)
    def scale_inplace(A: T.Buffer((T.int64(4),), "float32")):
        for i in range(4):
            with T.block("A"):
                vi = T.axis.spatial(4, i)
                A[vi] = A[vi] * T.float32(2)

    @T.prim_func(private=True)
    def dyn_copy(var_A: T.handle, var_B: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n,), "float32")
        B = T.match_buffer(var_B, (n,), "float32")
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi] = A[vi]

    @R.function
    def call_tir_forms(x: R.Tensor((4,), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor((4,), "float32"):
        n = T.int64()
        cls = Calls
        a = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((4,), "float32"))
        b = R.call_tir(cls.copy, x, R.Tensor((4,), "float32"))
        c = R.call_tir(cls.split2, (a,), out_sinfo=[R.Tensor((2,), "float32"), R.Tensor((2,), "float32")])
        d: R.Tensor((n,), "float32") = R.call_tir(cls.dyn_copy, (y,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        e = R.call_tir(cls.dyn_copy, (y,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=[n])
        f: R.Object = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return a

    @R.function
    def inplace(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Calls
        a = R.call_tir_inplace(cls.scale_inplace, (x,), inplace_indices=[0], out_sinfo=R.Tensor((4,), "float32"))
        b = R.call_tir_inplace(cls.scale_inplace, (a,), 0, R.Tensor((4,), "float32"))
        return b

    @R.function
    def dps_packed(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.call_dps_packed("my_dps_func", (x,), out_sinfo=R.Tensor((4,), "float32"))
        b = R.call_dps_packed("my_dps_func", x, R.Tensor((4,), "float32"))
        c = R.call_dps_packed("two_outs", (x, b), out_sinfo=[R.Tensor((4,), "float32"), R.Tensor((4,), "float32")])
        return a

    @R.function(pure=False)
    def packed(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.call_packed("f", x, sinfo_args=R.Tensor((4,), "float32"))
        b = R.call_packed("g", x, R.prim_value(1), R.str("s"), sinfo_args=(R.Tensor((4,), "float32"),))
        c = R.call_packed("h", x, sinfo_args=[R.Tensor((4,), "float32"), R.Object])
        d = R.call_packed("no_sinfo", x)
        e = R.call_packed("with_int", x, 1, "text", sinfo_args=R.Object)
        f = R.call_packed("ty", x, ty_args=R.Tensor((4,), "float32"))
        R.call_packed("void", x, sinfo_args=(R.Tuple,))
        return a

    @R.function
    def pure_packed(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.call_pure_packed("f", x, sinfo_args=R.Tensor((4,), "float32"))
        b = R.call_pure_packed("g", x, x, sinfo_args=(R.Tensor((4,), "float32"), R.Tensor((4,), "float32")))
        c = R.call_pure_packed("h", x, ty_args=R.Tensor((4,), "float32"))
        d = R.call_inplace_packed("inplace_f", x, inplace_indices=[0], sinfo_args=[R.Tensor((4,), "float32")])
        e = R.call_inplace_packed("inplace_g", x, x, inplace_indices=[0, -1], sinfo_args=[R.Tensor((4,), "float32"), R.Tensor((4,), "float32")])
        return a

    @R.function(pure=False)
    def builtin_ctx(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.call_builtin_with_ctx("vm.builtin.reshape", (x, R.shape([2, 2])), sinfo_args=R.Tensor((2, 2), "float32"))
        R.call_builtin_with_ctx("vm.builtin.check_tensor_info", (x, R.prim_value(1), R.dtype("float32"), R.str("")))
        return x

    @R.function(pure=False)
    def closures(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Calls
        c = R.make_closure(cls.lifted, (x,))
        a = R.invoke_pure_closure(c, (x,), sinfo_args=R.Tensor((4,), "float32"))
        b = R.invoke_closure(c, (a,), sinfo_args=[R.Tensor((4,), "float32")])
        d = R.invoke_pure_closure(c, (x,), ty_args=R.Tensor((4,), "float32"))
        return b

    @R.function(private=True)
    def lifted(y: R.Tensor((4,), "float32"), z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        w = R.add(y, z)
        return w

    @R.function
    def with_sinfo(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.emit_with_sinfo("relax.builtin.alloc_tensor", (R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global")), (R.Tensor((4,), "float32"),))
        b = R.emit_with_sinfo("relax.add", (x, a), [R.Tensor((4,), "float32")])
        c = R.emit_with_sinfo("relax.nn.relu", (b,))
        return c

    @R.function(pure=False)
    def direct_calls(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Calls
        a = cls.lifted(x, x)
        b = Calls.lifted(a, x)
        out = R.builtin.alloc_tensor(R.shape([4]), "float32", 0)
        cls.copy(b, out)
        return out

    @R.function
    def pure_view(x: R.Tensor((16,), "float32")) -> R.Tensor((4, 4), "float32"):
        # An ExternFunc with its own struct info is called as written; the derive function
        # infers the call's struct info as R.memory.view's.
        v = R.ExternFunc("runtime.TVMTensorCreateView", R.Callable(derive_func="tvm.relax.struct_info.infer_view_sinfo", purity=True))(x, R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        return v
