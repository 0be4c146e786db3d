# A match_cast that ties the count to another size (the param's n) is a check
# that can fail: the index and the cast stay; the put still becomes a where.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        n = T.int64()
        picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
        counted: R.Tensor((n,), dtype="float32") = R.match_cast(picked, R.Tensor((n,), dtype="float32"))
        out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
        return out2


@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        n = T.int64()
        picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
        counted: R.Tensor((n,), dtype="float32") = R.match_cast(picked, R.Tensor((n,), dtype="float32"))
        out2: R.Tensor((4, 8), dtype="float32") = R.where(mask, src, out)
        return out2
