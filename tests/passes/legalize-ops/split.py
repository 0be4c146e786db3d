# split has a tuple output: out_sinfo lists every part. Sections are an int
# prim value, split points an R.shape. concat of a tuple held in a var reads
# each field first.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((6, 4), "float32")):
        a = R.split(x, 3)
        b = R.split(x, [1, 3], axis=0)
        c = R.concat(a, axis=1)
        return (b, c)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((6, 4), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((1, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((3, 4), dtype="float32")), R.Tensor((2, 12), dtype="float32")):
        a = R.call_dps_packed("graft.split", (x, R.prim_value(3), R.prim_value(0)), out_sinfo=[R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")])
        b = R.call_dps_packed("graft.split", (x, R.shape([1, 3]), R.prim_value(0)), out_sinfo=[R.Tensor((1, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((3, 4), dtype="float32")])
        gv: R.Tensor((2, 4), dtype="float32") = a[0]
        gv1: R.Tensor((2, 4), dtype="float32") = a[1]
        gv2: R.Tensor((2, 4), dtype="float32") = a[2]
        c = R.call_dps_packed("graft.concat", (gv, gv1, gv2, R.prim_value(1)), out_sinfo=R.Tensor((2, 12), dtype="float32"))
        return (b, c)
