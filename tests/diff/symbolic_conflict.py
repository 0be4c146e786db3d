# DIFF: functions["main"].params[1].struct_info.shape.values[0]
# k pairs with q in the first param, so the second param's k cannot pair with p.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor(("n", "k"), "float32"), y: R.Tensor(("k",), "float32")) -> R.Tensor(("k",), "float32"):
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor(("p", "q"), "float32"), y: R.Tensor(("p",), "float32")) -> R.Tensor(("p",), "float32"):
        return y
