# An op graft does not know may draw anew each call: its two calls are different masks.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            m1: R.Tensor((4, 8), dtype="bool") = R.bernoulli_mask(x)
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
            m2: R.Tensor((4, 8), dtype="bool") = R.bernoulli_mask(x)
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
            R.output(out2)
        return out2

@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            m1: R.Tensor((4, 8), dtype="bool") = R.bernoulli_mask(x)
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
            m2: R.Tensor((4, 8), dtype="bool") = R.bernoulli_mask(x)
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
            R.output(out2)
        return out2
