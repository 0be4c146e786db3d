# DIFF: functions["main"].body.blocks[0].bindings[0].var
# lv0 is a DataflowVar in A and an output (plain Var) in B.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class A:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, lv0)
            R.output(gv)
        return gv


@I.ir_module
class B:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, lv0)
            R.output(lv0, gv)
        return gv
