# Dataflow blocks: outputs, empty output lists, several blocks, block merging.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Dataflow:
    @R.function
    def single(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            lv1 = R.multiply(lv0, x)
            gv = R.nn.relu(lv1)
            R.output(gv)
        return gv

    @R.function
    def two_outputs(x: R.Tensor((2, 3), "float32")) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")):
        with R.dataflow():
            a = R.add(x, x)
            b = R.subtract(a, x)
            c = R.multiply(b, a)
            R.output(a, c)
        return (a, c)

    @R.function
    def empty_output(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            unused = R.add(x, x)
            R.output()
        return x

    @R.function
    def blocks(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.add(x, x)
        with R.dataflow():
            a = R.multiply(y, y)
            R.output(a)
        b = R.add(a, y)
        with R.dataflow():
            c = R.subtract(b, a)
            d = R.exp(c)
            R.output(d)
        with R.dataflow():
            e = R.negative(d)
            R.output(e)
        return e

    @R.function
    def nested_calls(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            gv = R.add(R.multiply(x, x), R.exp(x))
            R.output(gv)
        return gv

    @R.function
    def tuples_in_dataflow(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            t = (x, x)
            a = t[0]
            b = t[1]
            gv = R.add(a, b)
            R.output(gv)
        return gv

    @R.function
    def output_is_param_alias(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            gv = x
            R.output(gv)
        return gv
