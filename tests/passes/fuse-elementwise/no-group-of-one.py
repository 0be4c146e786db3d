# A single elementwise op is no group: nothing changes (and no function is added).
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            s: R.Tensor((), dtype="float32") = R.sum(a)
            b: R.Tensor((16,), dtype="float32") = R.add(a, s)
            R.output(b)
        return b


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            s: R.Tensor((), dtype="float32") = R.sum(a)
            b: R.Tensor((16,), dtype="float32") = R.add(a, s)
            R.output(b)
        return b
