# Two draws of a random mask look alike but are different masks: unchanged.
# PIPELINE: fuse-masked-copy
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            r1: R.Tensor((4, 8), dtype="float32") = R.call_pure_packed("random_uniform", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="float32"),))
            m1: R.Tensor((4, 8), dtype="bool") = R.greater(r1, R.const(0.5, "float32"))
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
            r2: R.Tensor((4, 8), dtype="float32") = R.call_pure_packed("random_uniform", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="float32"),))
            m2: R.Tensor((4, 8), dtype="bool") = R.greater(r2, R.const(0.5, "float32"))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
            R.output(out2)
        return out2

@I.ir_module
class Expected:
    @R.function
    def main(src: R.Tensor((4, 8), dtype="float32"), out: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            r1: R.Tensor((4, 8), dtype="float32") = R.call_pure_packed("random_uniform", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="float32"),))
            m1: R.Tensor((4, 8), dtype="bool") = R.greater(r1, R.const(0.5, "float32"))
            picked: R.Tensor(dtype="float32", ndim=1) = R.index_tensor(src, (m1,))
            r2: R.Tensor((4, 8), dtype="float32") = R.call_pure_packed("random_uniform", R.shape([4, 8]), sinfo_args=(R.Tensor((4, 8), dtype="float32"),))
            m2: R.Tensor((4, 8), dtype="bool") = R.greater(r2, R.const(0.5, "float32"))
            out2: R.Tensor((4, 8), dtype="float32") = R.index_put(out, (m2,), picked, accumulate=False)
            R.output(out2)
        return out2
