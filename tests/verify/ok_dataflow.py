# VERIFY: ok
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv = R.add(x, x)
            gv = R.multiply(lv, x)
            R.output(gv)
        return gv
