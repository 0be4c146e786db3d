# TVM's stack, meshgrid, one_hot, outer, eye/eye_like, hamming_window,
# ewise_fma, log_add_exp, nn.selu, collapse_sum_like/_to and bucketize: each
# becomes its kernel call. The creation ops pass no tensor (eye_like's
# template only gives the output its shape), nor do the collapse sums pass
# their target: the output's shape says what is summed.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), v: R.Tensor((3,), "int64"), b: R.Tensor((4,), "float32")):
        s = R.stack((x, x), axis=1)
        g = R.meshgrid((v, v), indexing="xy")
        o = R.one_hot(v, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)), depth=4)
        p = R.outer(b, b)
        e = R.eye(3, 4, k=1)
        l = R.eye_like(p, -1, dtype="int32")
        h = R.hamming_window(8, True, 0.54, 0.46, dtype="float32")
        f = R.ewise_fma(x, x, x)
        a = R.log_add_exp(x, x)
        n = R.nn.selu(x)
        c = R.collapse_sum_like(x, v)
        t = R.collapse_sum_to(x, (1, 3))
        k = R.bucketize(x, b, out_int32=True, right=True)
        return (s, g, o, p, e, l, h, f, a, n, c, t, k)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), v: R.Tensor((3,), dtype="int64"), b: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((2, 2, 3), dtype="float32"), R.Tuple(R.Tensor((3, 3), dtype="int64"), R.Tensor((3, 3), dtype="int64")), R.Tensor((3, 4), dtype="float32"), R.Tensor((4, 4), dtype="float32"), R.Tensor((3, 4), dtype="float32"), R.Tensor((4, 4), dtype="int32"), R.Tensor((8,), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((1, 3), dtype="float32"), R.Tensor((2, 3), dtype="int32")):
        s = R.call_dps_packed("graft.stack", (x, x, R.prim_value(1)), out_sinfo=R.Tensor((2, 2, 3), dtype="float32"))
        g = R.call_dps_packed("graft.meshgrid", (v, v, R.str("xy")), out_sinfo=[R.Tensor((3, 3), dtype="int64"), R.Tensor((3, 3), dtype="int64")])
        o = R.call_dps_packed("graft.one_hot", (v, R.prim_value(T.float32(1.0)), R.prim_value(T.float32(0.0)), R.prim_value(4), R.prim_value(-1)), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        p = R.call_dps_packed("graft.outer", (b, b), out_sinfo=R.Tensor((4, 4), dtype="float32"))
        e = R.call_dps_packed("graft.eye", (R.prim_value(1),), out_sinfo=R.Tensor((3, 4), dtype="float32"))
        l = R.call_dps_packed("graft.eye_like", (R.prim_value(-1),), out_sinfo=R.Tensor((4, 4), dtype="int32"))
        h = R.call_dps_packed("graft.hamming_window", (R.prim_value(T.bool(True)), R.prim_value(T.float64(0.54000000000000004)), R.prim_value(T.float64(0.46000000000000002))), out_sinfo=R.Tensor((8,), dtype="float32"))
        f = R.call_dps_packed("graft.ewise_fma", (x, x, x), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        a = R.call_dps_packed("graft.log_add_exp", (x, x), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        n = R.call_dps_packed("graft.nn.selu", (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        c = R.call_dps_packed("graft.collapse_sum_like", (x,), out_sinfo=R.Tensor((3,), dtype="float32"))
        t = R.call_dps_packed("graft.collapse_sum_to", (x,), out_sinfo=R.Tensor((1, 3), dtype="float32"))
        k = R.call_dps_packed("graft.bucketize", (x, b, R.prim_value(T.bool(True))), out_sinfo=R.Tensor((2, 3), dtype="int32"))
        return (s, g, o, p, e, l, h, f, a, n, c, t, k)
