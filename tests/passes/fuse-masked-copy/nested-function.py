# A masked copy inside a nested function is rewritten too.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        @R.function
        def copy(s: R.Tensor((4, 8), dtype="float32"), o: R.Tensor((4, 8), dtype="float32"), m: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(s, (m,))
            r: R.Tensor((4, 8), dtype="float32") = R.index_put(o, (m,), picked, accumulate=False)
            return r

        res: R.Tensor((4, 8), dtype="float32") = copy(src, out, mask)
        return res


@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        @R.function
        def copy(s: R.Tensor((4, 8), dtype="float32"), o: R.Tensor((4, 8), dtype="float32"), m: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
            r: R.Tensor((4, 8), dtype="float32") = R.where(m, s, o)
            return r

        res: R.Tensor((4, 8), dtype="float32") = copy(src, out, mask)
        return res
