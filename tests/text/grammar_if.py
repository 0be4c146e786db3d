# if/else: leaf and non-leaf branch results, PrimExpr conditions, nesting, tuples.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Branches:
    @R.function
    def leaf_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            r = x
        else:
            r = y
        return r

    @R.function
    def call_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            a = R.add(x, x)
            r = R.multiply(a, a)
        else:
            r = R.subtract(x, x)
        return r

    @R.function
    def prim_cond(n: R.Prim("bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if n:
            r = R.exp(x)
        else:
            r = R.log(x)
        return r

    @R.function
    def symbolic_cond(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        if R.prim_value(n > 4):
            r = R.exp(x)
        else:
            r = x
        return r

    @R.function
    def lca_sinfo(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor(dtype="float32", ndim=1):
        if c:
            r = x
        else:
            r = y
        return r

    @R.function
    def nested(c: R.Tensor((), "bool"), d: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            if d:
                r1 = R.add(x, x)
            else:
                r1 = R.multiply(x, x)
            r = R.nn.relu(r1)
        else:
            r = x
        return r

    @R.function
    def tuple_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tensor((2,), "float32")):
        if c:
            r = (x, x)
        else:
            y = R.add(x, x)
            r = (y, x)
        return r

    @R.function
    def annotated_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Object:
        if c:
            r: R.Object = R.add(x, x)
        else:
            r: R.Object = x
        return r

    @R.function
    def after_dataflow(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            R.output(a)
        if c:
            r = R.multiply(a, a)
        else:
            r = a
        s = R.add(r, x)
        return s

    @R.function
    def match_cast_ends_branches(c: R.Tensor((), "bool"), x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        if c:
            y = R.add(x, x)
            r = R.match_cast(y, R.Tensor((n,), "float32"))
        else:
            r = R.match_cast(x, R.Tensor((n,), "float32"))
        return r

    @R.function
    def dataflow_ends_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            with R.dataflow():
                a = R.add(x, x)
                r = R.multiply(a, a)
                R.output(r)
        else:
            with R.dataflow():
                r = R.subtract(x, x)
                R.output(r)
        return r

    @R.function(pure=False)
    def print_ends_branches(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            R.print(x, format="then {}")
        else:
            R.print(x, format="else {}")
        return x
