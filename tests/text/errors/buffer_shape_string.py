# ERROR: buffer_shape_string.py:6:23: error: string symbolic expressions are only allowed in a function signature
from tvm.script import ir as I, tir as T
@I.ir_module
class M:
    @T.prim_func(private=True)
    def f(A: T.Buffer("n", "int64")):
        T.evaluate(0)
