# A static reshape followed by a match_cast to a new symbolic shape: the shape
# of TVM #20485 (the Phi-3.5-vision image embedding, where a 576-token
# embedding is reshaped to a 24 x 24 grid and then cast to the symbolic crop
# grid `h x w`). The grid's dims become symbolic for everything after it.
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor((1, 576, 64), dtype="float32"),
        w: R.Tensor((64, 64), dtype="float32"),
    ) -> R.Tensor(dtype="float32", ndim=3):
        h = T.int64()
        v = T.int64()
        with R.dataflow():
            e = R.matmul(x, w)
            g = R.multiply(e, R.const(0.5, "float32"))
            grid = R.reshape(g, R.shape([24, 24, 64]))
            crop = R.match_cast(grid, R.Tensor((h, v, 64), dtype="float32"))
            s = R.sum(crop, axis=[2], keepdims=True)
            out = R.add(crop, s)
            R.output(out)
        return out
