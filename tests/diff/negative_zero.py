# DIFF: functions["main"].body.blocks[0].bindings[0].value.args[1].data
# Floats compare bit for bit: -0.0 differs from 0.0.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((), "float32")) -> R.Tensor((), "float32"):
        y = R.add(x, R.const(0.0, "float32"))
        return y


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((), "float32")) -> R.Tensor((), "float32"):
        y = R.add(x, R.const(-0.0, "float32"))
        return y
