# DIFF: functions["f"].attrs["global_symbol"]
# DIFF-RHS: functions["f"].attrs[<missing item at "global_symbol">]
# A private function has no global_symbol; function attrs are compared first.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x


@I.ir_module
class B:
    @R.function(private=True)
    def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
