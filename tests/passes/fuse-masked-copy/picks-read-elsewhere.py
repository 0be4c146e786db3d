# The picks have a second reader: the put still becomes a where, but the
# index (and its count read) stays for that reader.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool")) -> R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((), dtype="float32")):
        with R.dataflow():
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
            total: R.Tensor((), dtype="float32") = R.sum(picked, axis=None, keepdims=False)
            gv: R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((), dtype="float32")) = out2, total
            R.output(gv)
        return gv


@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool")) -> R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((), dtype="float32")):
        with R.dataflow():
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
            out2: R.Tensor((4, 8), dtype="float32") = R.where(mask, src, out)
            total: R.Tensor((), dtype="float32") = R.sum(picked, axis=None, keepdims=False)
            gv: R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((), dtype="float32")) = out2, total
            R.output(gv)
        return gv
