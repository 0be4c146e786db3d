# VERIFY: impure call in a dataflow block: R.print
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            R.print(x, format="{}")
            gv = R.add(x, x)
            R.output(gv)
        return gv
