# The ops after the core set: repeat (an unset axis as R.null_value()), tile,
# flip, quantize/dequantize (their out_dtype is the output's), topk (a tuple
# output for ret_type "both"), einsum (its operands as the kernel's inputs),
# dynamic_strided_slice (a host form: the output's shape comes from
# begin/end/strides), and the gradient checkpoint markers, which are
# forwarded: no kernel runs.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), s: R.Tensor((3,), "float32"), z: R.Tensor((3,), "int8"), b: R.Tensor((2,), "int64")):
        c = R.grad.start_checkpoint(x)
        r = R.repeat(c, 2, axis=1)
        f = R.repeat(x, 3)
        t = R.tile(x, [2, 1, 2])
        p = R.flip(x, axis=-1)
        q = R.quantize(x, s, z, axis=1, out_dtype="int8")
        d = R.dequantize(q, s, z, axis=1, out_dtype="float16")
        k = R.topk(x, 2, axis=0, ret_type="both", largest=False, dtype="int64")
        e = R.einsum((x, x), "ij,kj->ik")
        y = R.dynamic_strided_slice(x, b, b, b)
        o = R.grad.end_checkpoint(e)
        return (r, f, t, p, d, k, o, y)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), s: R.Tensor((3,), dtype="float32"), z: R.Tensor((3,), dtype="int8"), b: R.Tensor((2,), dtype="int64")) -> R.Tuple(R.Tensor((2, 6), dtype="float32"), R.Tensor((18,), dtype="float32"), R.Tensor((2, 2, 6), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float16"), R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="int64")), R.Tensor((2, 2), dtype="float32"), R.Tensor(dtype="float32", ndim=2)):
        c: R.Tensor((2, 3), dtype="float32") = x
        r = R.call_dps_packed("graft.repeat", (c, R.prim_value(2), R.prim_value(1)), out_sinfo=R.Tensor((2, 6), dtype="float32"))
        none: R.Object = R.null_value()
        f = R.call_dps_packed("graft.repeat", (x, R.prim_value(3), none), out_sinfo=R.Tensor((18,), dtype="float32"))
        t = R.call_dps_packed("graft.tile", (x, R.shape([2, 1, 2])), out_sinfo=R.Tensor((2, 2, 6), dtype="float32"))
        p = R.call_dps_packed("graft.flip", (x, R.prim_value(-1)), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        q = R.call_dps_packed("graft.quantize", (x, s, z, R.prim_value(1)), out_sinfo=R.Tensor((2, 3), dtype="int8"))
        d = R.call_dps_packed("graft.dequantize", (q, s, z, R.prim_value(1)), out_sinfo=R.Tensor((2, 3), dtype="float16"))
        k = R.call_dps_packed("graft.topk", (x, R.prim_value(2), R.prim_value(0), R.str("both"), R.prim_value(T.bool(False))), out_sinfo=[R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="int64")])
        e = R.call_dps_packed("graft.einsum", (x, x, R.str("ij,kj->ik")), out_sinfo=R.Tensor((2, 2), dtype="float32"))
        y: R.Tensor(dtype="float32", ndim=2) = R.call_pure_packed("graft.host.dynamic_strided_slice", x, b, b, b, sinfo_args=(R.Tensor(dtype="float32", ndim=2),))
        o: R.Tensor((2, 2), dtype="float32") = e
        return (r, f, t, p, d, k, o, y)
