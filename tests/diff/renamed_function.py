# DIFF: functions["main"]
# DIFF-RHS: functions[<missing item at "main">]
# GlobalVar names matter: a renamed function is a missing one.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class B:
    @R.function
    def entry(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
