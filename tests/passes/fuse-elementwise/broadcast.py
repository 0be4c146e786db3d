# Broadcast ops fuse: a bias of shape (8,) added to (4, 8), then relu, then a comparison feeding
# where (a bool intermediate).
# PIPELINE: fuse-elementwise
from tvm.script import ir as I, relax as R


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), bias: R.Tensor((8,), dtype="float32"), lim: R.Tensor((4, 1), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.add(x, bias)
            b: R.Tensor((4, 8), dtype="float32") = R.nn.relu(a)
            m: R.Tensor((4, 8), dtype="bool") = R.less(b, lim)
            c: R.Tensor((4, 8), dtype="float32") = R.where(m, b, lim)
            R.output(c)
        return c


@I.ir_module
class Expected:
    @R.function(private=True)
    def fused_add_nn_relu_less_where(x: R.Tensor((4, 8), dtype="float32"), bias: R.Tensor((8,), dtype="float32"), lim: R.Tensor((4, 1), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            a: R.Tensor((4, 8), dtype="float32") = R.add(x, bias)
            b: R.Tensor((4, 8), dtype="float32") = R.nn.relu(a)
            m: R.Tensor((4, 8), dtype="bool") = R.less(b, lim)
            c: R.Tensor((4, 8), dtype="float32") = R.where(m, b, lim)
            R.output(c)
        return c

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), bias: R.Tensor((8,), dtype="float32"), lim: R.Tensor((4, 1), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            c = R.call_dps_packed("graft.fused.fused_add_nn_relu_less_where", (x, bias, lim), out_sinfo=R.Tensor((4, 8), dtype="float32"))
            R.output(c)
        return c
