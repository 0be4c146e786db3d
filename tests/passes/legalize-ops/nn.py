# softmax passes its axis; layer_norm its axes, epsilon (float64), center and
# scale, with data, gamma and beta as inputs; rms_norm data and weight.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 4), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32")):
        a = R.nn.softmax(x, axis=0)
        c = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-6, center=False)
        d = R.nn.rms_norm(x, g)
        e = R.nn.log_softmax(x)
        f = R.nn.gelu(x)
        return (a, c, d, e, f)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), g: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")):
        a = R.call_dps_packed("graft.nn.softmax", (x, R.prim_value(0)), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        c = R.call_dps_packed("graft.nn.layer_norm", (x, g, b, R.shape([-1]), R.prim_value(T.float64(9.9999999999999995e-07)), R.prim_value(T.bool(False)), R.prim_value(T.bool(True))), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        d = R.call_dps_packed("graft.nn.rms_norm", (x, g, R.shape([-1]), R.prim_value(T.float64(1.0000000000000001e-05))), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        e = R.call_dps_packed("graft.nn.log_softmax", (x, R.prim_value(-1)), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        f = R.call_dps_packed("graft.nn.gelu", (x,), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        return (a, c, d, e, f)
