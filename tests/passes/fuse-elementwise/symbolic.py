# Symbolic shapes: the fused function's parameters carry them and define n.
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float16"), y: R.Tensor((1, 4), dtype="float16")) -> R.Tensor(("n", 4), dtype="float16"):
        n = T.int64()
        with R.dataflow():
            a: R.Tensor((n, 4), dtype="float16") = R.subtract(x, y)
            b: R.Tensor((n, 4), dtype="float16") = R.square(a)
            c: R.Tensor((n, 4), dtype="float32") = R.astype(b, dtype="float32")
            d: R.Tensor((n, 4), dtype="float16") = R.astype(c, dtype="float16")
            R.output(d)
        return d


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_subtract_square_astype_astype(x: R.Tensor(("n", 4), dtype="float16"), y: R.Tensor((1, 4), dtype="float16")) -> R.Tensor(("n", 4), dtype="float16"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((n, 4), dtype="float16") = R.subtract(x, y)
            b: R.Tensor((n, 4), dtype="float16") = R.square(a)
            c: R.Tensor((n, 4), dtype="float32") = R.astype(b, dtype="float32")
            d: R.Tensor((n, 4), dtype="float16") = R.astype(c, dtype="float16")
            R.output(d)
        return d

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float16"), y: R.Tensor((1, 4), dtype="float16")) -> R.Tensor(("n", 4), dtype="float16"):
        with R.dataflow():
            d = R.call_dps_packed("graft.fused.fused_subtract_square_astype_astype", (x, y), out_sinfo=R.Tensor((n, 4), dtype="float16"))
            R.output(d)
        return d
