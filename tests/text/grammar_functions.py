# Function forms: decorators, params, return annotations, attrs, returns.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

# fmt: off

@I.ir_module
class Functions:
    @R.function
    def no_params() -> R.Tensor((), "int32"):
        c = R.const(1, "int32")
        return c

    @R.function(private=True)
    def private_fn(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        return x

    @R.function(pure=False)
    def impure_fn(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.print(x, format="x = {}")
        return x

    @R.function(pure=False, private=True)
    def impure_private(x: R.Tensor((2, 3), "float32")):
        R.print(x)
        return x

    @R.function
    def no_ret_annotation(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        z = R.add(x, y)
        return z

    @R.function
    def non_leaf_return(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        return R.multiply(x, x)

    @R.function
    def tuple_return(x: R.Tensor((2, 3), "float32")) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")):
        return (x, x)

    @R.function
    def attrs(x: R.Tensor((2, 3), "float32"), w: R.Tensor((3, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"num_input": 1, "relax.force_pure": True, "tag": "hello", "ratio": 0.5, "list": [1, 2, 3], "nested": {"a": 1}})
        y = R.matmul(x, w)
        return y

    @R.function
    def shadowing(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.add(x, x)
        y = R.multiply(y, y)
        y = R.subtract(y, x)
        return y

    @R.function
    def trailing_comma(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((2, 3), "float32"),
    ) -> R.Tensor((2, 3), "float32"):
        z = R.add(
            x,
            y,
        )
        return z

    @R.function
    def object_and_prim(o: R.Object, p: R.Prim("int64"), s: R.Shape([2, 3])) -> R.Object:
        return o

    @R.function
    def leaf_returns(x: R.Tensor((2, 3), "float32")) -> R.Shape([2, 3]):
        return R.shape([2, 3])

    @R.function
    def returns_prim() -> R.Prim("int64"):
        return R.prim_value(5)

    @R.function
    def returns_str() -> R.Object:
        return R.str("hello")


@R.function
def standalone(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    y = R.nn.relu(x)
    return y
