# Everything is used: the module is unchanged.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        return a


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        a = R.add(x, x)
        return a
