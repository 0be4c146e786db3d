# Two bindings of the same deterministic computation of the same inputs are
# the same mask: rewritten. (The second mask's math is left for
# dead-code-elimination.)
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor(("n", 8), dtype="float32"), out: R.Tensor(("n", 8), dtype="float32"), x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            a1: R.Tensor((n, 8), dtype="float32") = R.abs(x)
            m1: R.Tensor((n, 8), dtype="bool") = R.greater(a1, R.const(0.5, "float32"))
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
            a2: R.Tensor((n, 8), dtype="float32") = R.abs(x)
            m2: R.Tensor((n, 8), dtype="bool") = R.greater(a2, R.const(0.5, "float32"))
            out2: R.Tensor((n, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
            R.output(out2)
        return out2


@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor(("n", 8), dtype="float32"), out: R.Tensor(("n", 8), dtype="float32"), x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            a1: R.Tensor((n, 8), dtype="float32") = R.abs(x)
            m1: R.Tensor((n, 8), dtype="bool") = R.greater(a1, R.const(0.5, "float32"))
            a2: R.Tensor((n, 8), dtype="float32") = R.abs(x)
            m2: R.Tensor((n, 8), dtype="bool") = R.greater(a2, R.const(0.5, "float32"))
            out2: R.Tensor((n, 8), dtype="float32") = R.where(m2, src, out)
            R.output(out2)
        return out2
