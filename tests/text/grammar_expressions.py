# Expression evaluator forms: conditional expressions, chained comparisons,
# PrimExpr arithmetic, unknown (unregistered) ops on annotated bindings.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Expressions:
    @R.function
    def conditional(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        a = R.add(x, x) if True else x
        b = x if False else R.multiply(x, x)
        s = R.shape([n if False else 4, 2 if True else n])
        p = R.prim_value(n if n > 2 else 2)
        return a

    @R.function
    def chained(x: R.Tensor(("n",), "float32")) -> R.Prim("bool"):
        n = T.int64()
        p = R.prim_value(0 < n < 10)
        q = R.prim_value(T.And(n > 0, n < 10))
        r = R.prim_value(n == 4 or n != 5)
        s = R.prim_value(not n > 3)
        return p

    @R.function
    def prim_arith(x: R.Tensor(("n", "m"), "float32")) -> R.Shape:
        n = T.int64()
        m = T.int64()
        s = R.shape([n * m, n + m, n - m, n // m, n % m, T.floordiv(n, 2), T.floormod(m, 3), -n, (n + 1) * (m - 1)])
        t = R.shape([T.max(n, m), T.min(n, 8), T.Cast("int64", T.int32(4))])
        return s

    @R.function
    def unknown_ops(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y: R.Tensor((4,), "float32") = R.my_custom.op(x, 1, "s", flag=True, values=[1, 2], ratio=0.5)
        z: R.Object = R.another_op(y)
        w: R.Tensor((4,), "float32") = R.nn.not_registered(y, axis=-1)
        return w
