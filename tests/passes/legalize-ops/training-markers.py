# grad.no_grad is forwarded like the checkpoint markers (TVM's legalization
# returns its argument); wrap_param is a cast, lowered to graft.astype.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float16"), w: R.Tensor((3,), "float32")):
        n = R.grad.no_grad(x)
        p = R.wrap_param(n)
        q = R.wrap_param(w, dtype="float32")
        return (p, q)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float16"), w: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((3,), dtype="float32")):
        n: R.Tensor((2, 3), dtype="float16") = x
        p = R.call_dps_packed("graft.astype", (n,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        q = R.call_dps_packed("graft.astype", (w,), out_sinfo=R.Tensor((3,), dtype="float32"))
        return (p, q)
