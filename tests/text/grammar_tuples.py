# Tuples: literals, nesting, empty tuples, indexing, R.tuple, tuple params and unpacking.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Tuples:
    @R.function
    def literals(x: R.Tensor((2,), "float32"), y: R.Tensor((3,), "int32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tuple(R.Tensor((3,), "int32"), R.Tensor((2,), "float32"))):
        t = (x, (y, x))
        return t

    @R.function
    def single_and_empty(x: R.Tensor((2,), "float32")) -> R.Tuple(R.Tuple(R.Tensor((2,), "float32")), R.Tuple):
        a = (x,)
        b = R.tuple()
        c = (a, b)
        return c

    @R.function
    def r_tuple(x: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tensor((2,), "float32")):
        t = R.tuple(x, x)
        return t

    @R.function
    def get_items(t: R.Tuple(R.Tensor((2,), "float32"), R.Tuple(R.Tensor((3,), "int32"), R.Shape([4])))) -> R.Shape([4]):
        a = t[0]
        b = t[1]
        c = b[1]
        d = t[1][0]
        return c

    @R.function
    def tuple_of_mixed(x: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Shape([1, 2]), R.Prim(value=3), R.Object):
        t = (x, R.shape([1, 2]), R.prim_value(3), R.str("s"))
        return t

    @R.function
    def empty_return() -> R.Tuple:
        return R.tuple()

    @R.function
    def item_of_call(x: R.Tensor((4,), "float32")) -> R.Tensor((2,), "float32"):
        parts = R.split(x, 2)
        p0 = parts[0]
        return p0

    @R.function
    def unpack(x: R.Tensor((4,), "float32")) -> R.Tensor((2,), "float32"):
        a, b = R.split(x, 2)
        c = R.add(a, b)
        return c

    @R.function
    def tuple_sinfo_list_form(t: R.Tuple([R.Tensor((2,), "float32"), R.Object])) -> R.Object:
        o = t[1]
        return o
