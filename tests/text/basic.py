# from tvm.script import ir as I
# from tvm.script import relax as R
# from tvm.script import tir as T
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi] + T.float32(1)  # a comment

    @R.function
    def helper(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        y: R.Tensor((n, 4), dtype="float32") = R.add(x, x)
        return y

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), c: R.Prim("bool")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            a = R.multiply(x, R.const(2.0, "float32"))
            b = R.nn.relu(a)
            s = R.sum(b, axis=[1], keepdims=True)
            R.output(b, s)
        if c:
            r = cls.helper(b)
        else:
            r = R.add(b, b)
        t = (r, s)
        u = t[0]
        v = R.call_tir(cls.add_one, (R.reshape(u, R.shape([8])),), out_sinfo=R.Tensor((4,), dtype="float32"))
        R.print(u, format="u")
        return u
