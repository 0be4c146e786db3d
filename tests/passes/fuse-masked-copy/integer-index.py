# An integer index may repeat and reorder positions: unchanged.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((8,), dtype="float32"), out: R.Tensor((8,), dtype="float32"), idx: R.Tensor((8,), dtype="int64")) -> R.Tensor((8,), dtype="float32"):
        with R.dataflow():
            picked: R.Tensor((8,), dtype="float32") = R.index_tensor(src, (idx,))
            out2: R.Tensor((8,), dtype="float32") = R.index_put(out, (idx,), picked, accumulate=False)
            R.output(out2)
        return out2

@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((8,), dtype="float32"), out: R.Tensor((8,), dtype="float32"), idx: R.Tensor((8,), dtype="int64")) -> R.Tensor((8,), dtype="float32"):
        with R.dataflow():
            picked: R.Tensor((8,), dtype="float32") = R.index_tensor(src, (idx,))
            out2: R.Tensor((8,), dtype="float32") = R.index_put(out, (idx,), picked, accumulate=False)
            R.output(out2)
        return out2
