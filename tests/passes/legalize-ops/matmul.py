# matmul takes the output dtype as its out_dtype attribute (the kernel
# checks it), whether or not the call set one.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor((2, 3, 4), "float16"), b: R.Tensor((4, 5), "float16")):
        c = R.matmul(a, b)
        d = R.matmul(a, b, out_dtype="float32")
        return (c, d)


@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor((2, 3, 4), dtype="float16"), b: R.Tensor((4, 5), dtype="float16")) -> R.Tuple(R.Tensor((2, 3, 5), dtype="float16"), R.Tensor((2, 3, 5), dtype="float32")):
        c = R.call_dps_packed("graft.matmul", (a, b, R.dtype("float16")), out_sinfo=R.Tensor((2, 3, 5), dtype="float16"))
        d = R.call_dps_packed("graft.matmul", (a, b, R.dtype("float32")), out_sinfo=R.Tensor((2, 3, 5), dtype="float32"))
        return (c, d)
