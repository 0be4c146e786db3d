# A masked copy inside an if branch is rewritten too (the CUDA-graph masked-copy case: the first
# version walked only the top level).
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        if flag:
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
            r: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
        else:
            r: R.Tensor((4, 8), dtype="float32") = out
        return r


@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), flag: R.Tensor((), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        if flag:
            r: R.Tensor((4, 8), dtype="float32") = R.where(mask, src, out)
        else:
            r: R.Tensor((4, 8), dtype="float32") = out
        return r
