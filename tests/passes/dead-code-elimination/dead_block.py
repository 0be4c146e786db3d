# A whole dataflow block whose output nothing reads goes, block and all.
# PIPELINE: dead-code-elimination
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), "float32")):
        with R.dataflow():
            a = R.permute_dims(x, axes=[0, 2, 3, 1])
            R.output(a)
        h = R.astype(x, dtype="float16")
        with R.dataflow():
            b = R.permute_dims(h, axes=[0, 2, 3, 1])
            R.output(b)
        return h


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), "float32")):
        h = R.astype(x, dtype="float16")
        return h
