# The program of tests/e2e/run_kill_reapply_e2e.py (TVM #20267): `main` has
# static shapes only, so vm-shape-lower binds `shape_heap = R.null_value()`;
# `dyn` has a symbolic dim (a real shape heap), an `if` and a call of
# another function.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), "float32"), y: R.Tensor((1, 4), "float32")) -> R.Tensor((1, 4), "float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            a = R.add(x, y)
            b = R.matmul(R.permute_dims(a), a)
            c = R.sum(b, axis=[0], keepdims=True)
            d = R.nn.softmax(c)
            R.output(d)
        return d

    @R.function
    def scale(v: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        return R.multiply(v, R.const(2, "float32"))

    @R.function
    def dyn(x: R.Tensor(("n", 4), "float32"), flag: R.Prim("bool")):
        n = T.int64()
        cls = Module
        if flag:
            r = cls.scale(x)
        else:
            r = R.exp(x)
        s = R.reshape(r, (n * 4,))
        return (r, s)
