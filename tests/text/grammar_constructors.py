# Python-level spellings TVM's tests use: a class docstring, the Relax node
# constructors R.ShapeExpr and R.TupleGetItem, and T.IntImm/T.FloatImm
# constants bound to a name.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Constructors:
    """A docstring is dropped."""

    @R.function
    def shapes(x: R.Tensor((2, 3), "float32")) -> R.Shape([16]):
        t = (x, x)
        a = R.TupleGetItem(t, 0)
        b = R.ShapeExpr([16])
        return b

    @R.function
    def consts(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        scale = T.FloatImm("float32", 0.5)
        n = T.IntImm("int64", 3)
        y = R.multiply(x, R.prim_value(scale))
        z: R.Tensor((2, n), "float32") = y
        return z
