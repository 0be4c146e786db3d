# The put's mask is not the index's mask: unchanged.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), other: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (other,))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
            R.output(out2)
        return out2

@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), other: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (other,))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
            R.output(out2)
        return out2
