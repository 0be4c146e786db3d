# out[mask] = src[mask] becomes R.where(mask, src, out); the index goes too.
# RUN: %graft opt %s -p fuse-masked-copy | FileCheck %s
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32"), mask: R.Tensor((4, 8), dtype="bool")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (mask,))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (mask,), picked, accumulate=False)
            R.output(out2)
        return out2

# CHECK-LABEL: def main(
# CHECK: out2: R.Tensor((4, 8), dtype="float32") = R.where(mask, src, out)
