# DIFF: functions["k"].attrs["op_pattern"]
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @T.prim_func(private=True)
    def k(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        T.func_attr({"op_pattern": 0})
        for i in range(4):
            b[i] = a[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = A
        y = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y


@I.ir_module
class B:
    @T.prim_func(private=True)
    def k(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        T.func_attr({"op_pattern": 1})
        for i in range(4):
            b[i] = a[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = B
        y = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
