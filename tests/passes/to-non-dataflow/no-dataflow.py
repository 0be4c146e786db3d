# Without dataflow blocks nothing changes (if branches included).
# PIPELINE: to-non-dataflow
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        if c:
            r = R.add(x, x)
        else:
            r = R.multiply(x, x)
        return r


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Prim("bool")) -> R.Tensor((4,), "float32"):
        if c:
            r = R.add(x, x)
        else:
            r = R.multiply(x, x)
        return r
