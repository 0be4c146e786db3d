# Symbolic shapes: string shapes, T.int64() declarations, size vars, int32 vars,
# expressions in signatures, R.Prim(value=), R.Shape with symbolic values,
# several vars declared in one statement.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Symbolic:
    @R.function
    def strings(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor(("m",), "float32")) -> R.Tensor(("n", "m"), "float32"):
        n = T.int64()
        m = T.int64()
        z = R.add(x, y)
        return z

    @R.function
    def no_declaration(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        return x

    @R.function
    def expr_in_return(x: R.Tensor(("n",), "float32")) -> R.Tensor(("2 * n + 2",), "float32"):
        n = T.int64()
        y = R.concat((x, x, R.zeros(R.shape([2]), "float32")), axis=0)
        return y

    @R.function
    def size_var(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64(is_size_var=True)
        y = R.exp(x)
        return y

    @R.function
    def int32_var(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int32()
        return x

    @R.function
    def prim_value_param(x: R.Tensor(("n",), "float32"), k: R.Prim(value="n")) -> R.Prim(value="n"):
        n = T.int64()
        return k

    @R.function
    def prim_dtype_and_value(k: R.Prim("int64", value="n")) -> R.Prim("int64"):
        return k

    @R.function
    def shape_param(s: R.Shape(["a", "b"])) -> R.Shape(["a * b"]):
        a = T.int64()
        b = T.int64()
        t = R.shape([a * b])
        return t

    @R.function
    def body_vars(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        y = R.reshape(x, R.shape([n]))
        s = R.shape([n, n + 1, n * 2, n // 2, n % 3, T.max(n, 4), T.min(n, 4)])
        p = R.prim_value(n * 4)
        return y

    @R.function
    def t_int64_literals(x: R.Tensor((T.int64(3), T.int64(4)), "float32")) -> R.Tensor((3, 4), "float32"):
        y = R.reshape(x, R.shape([T.int64(4), T.int64(3)]))
        z = R.reshape(y, (3, 4))
        return z

    @R.function
    def tir_vars(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        y = R.call_tir(Symbolic.tir_add, (x,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        return y

    @R.function
    def shape_var_as_shape(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("n", "m"), "float32"):
        s = R.shape_of(x)
        y = R.reshape(x, s)
        return y

    @R.function
    def several_vars(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("n * m",), "float32"):
        n, m = T.int64(), T.int64(is_size_var=True)
        y = R.reshape(x, R.shape([n * m]))
        return y

    @R.function
    def several_vars_unused(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a, b, c = T.int64(), T.int32(), T.int64()
        return x

    @T.prim_func(private=True)
    def tir_several_vars(var_x: T.handle, var_y: T.handle):
        m, n, k = T.int64(), T.int64(), T.int32()
        x = T.match_buffer(var_x, (m, n), "float32")
        y = T.match_buffer(var_y, (m, n), "float32")
        for i, j in T.grid(m, n):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj]

    @T.prim_func(private=True)
    def tir_add(var_x: T.handle, var_y: T.handle, n: T.int64):
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] + T.float32(1)
