# DIFF: functions["main"].body.blocks[0].bindings[1].value.args[1]
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, x)
            R.output(gv)
        return gv


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, lv0)
            R.output(gv)
        return gv
