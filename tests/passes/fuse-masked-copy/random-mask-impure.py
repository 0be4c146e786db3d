# Two draws through an impure packed call are different masks: unchanged.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function(pure=False)
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        m1: R.Tensor((4, 8), dtype="bool") = R.call_packed("random_mask", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="bool"),))
        picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
        m2: R.Tensor((4, 8), dtype="bool") = R.call_packed("random_mask", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="bool"),))
        out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
        return out2

@I.ir_module
class Expected:
    @R.function(pure=False)
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        m1: R.Tensor((4, 8), dtype="bool") = R.call_packed("random_mask", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="bool"),))
        picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
        m2: R.Tensor((4, 8), dtype="bool") = R.call_packed("random_mask", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="bool"),))
        out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
        return out2
