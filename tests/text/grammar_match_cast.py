# match_cast: defining symbolic vars, tensors, shapes, prims, tuples, in and out of dataflow.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class MatchCast:
    @R.function
    def tensor(x: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(ndim=2, dtype="float32"):
        n = T.int64()
        m = T.int64()
        y = R.match_cast(x, R.Tensor((n, m), "float32"))
        z = R.add(y, y)
        return z

    @R.function
    def in_dataflow(x: R.Tensor("float32")) -> R.Tensor(dtype="float32", ndim=1):
        n = T.int64()
        with R.dataflow():
            y = R.match_cast(x, R.Tensor((n,), "float32"))
            z = R.concat((y, y), axis=0)
            R.output(z)
        return z

    @R.function
    def annotated(x: R.Object) -> R.Tensor((4,), "float32"):
        y: R.Tensor((4,), "float32") = R.match_cast(x, R.Tensor((4,), "float32"))
        return y

    @R.function
    def shape(s: R.Shape(ndim=2)) -> R.Shape(ndim=2):
        a = T.int64()
        b = T.int64()
        t = R.match_cast(s, R.Shape([a, b]))
        return t

    @R.function
    def prim(p: R.Prim("int64")) -> R.Prim("int64"):
        k = T.int64()
        q = R.match_cast(p, R.Prim(value=k))
        return q

    @R.function
    def tuple_(t: R.Tuple(R.Object, R.Object)) -> R.Tuple(R.Tensor((2,), "float32"), R.Shape([3])):
        u = R.match_cast(t, R.Tuple(R.Tensor((2,), "float32"), R.Shape([3])))
        return u

    @R.function
    def reuse_defined(x: R.Tensor(("n",), "float32"), y: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        z = R.match_cast(y, R.Tensor((n,), "float32"))
        w = R.add(x, z)
        return w

    @R.function
    def expr_dims(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y = R.match_cast(x, R.Tensor((n,), "float32"))
        z = R.match_cast(y, R.Tensor((n * 2 + 1,), "float32"))
        return z

    @R.function
    def shape_var_in_tensor(s: R.Shape(ndim=2), x: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(ndim=2, dtype="float32"):
        y = R.match_cast(x, R.Tensor(s, "float32"))
        return y
