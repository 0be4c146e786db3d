# A host read (a bool-mask index_tensor reads the mask's count) ends a group like an impure call.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), mask: R.Tensor((16,), dtype="bool")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor(dtype="float32", ndim=1)):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            p: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(x, (mask,))
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(b, p)
        return (b, p)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), mask: R.Tensor((16,), dtype="bool")) -> R.Tuple(R.Tensor((16,), dtype="float32"), R.Tensor(dtype="float32", ndim=1)):
        with R.dataflow():
            a: R.Tensor((16,), dtype="float32") = R.exp(x)
            p: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(x, (mask,))
            b: R.Tensor((16,), dtype="float32") = R.sin(a)
            R.output(p, b)
        return (b, p)
