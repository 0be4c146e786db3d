# nn.attention_var_len (its starts and maximum lengths as kernel inputs, the
# key's only when given), multinomial_from_uniform (the index dtype is the
# output's) and vision.all_class_non_max_suppression (a tuple output of each
# format's fields).
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(q: R.Tensor((1, 6, 2, 4), "float32"), sq: R.Tensor((3,), "int32"), mq: R.Tensor((), "int32"), p: R.Tensor((2, 5), "float32"), u: R.Tensor((3, 1), "float32"), i: R.Tensor((3, 1), "int64"), b: R.Tensor((1, 5, 4), "float32"), s: R.Tensor((1, 2, 5), "float32"), m: R.Tensor((), "int64"), t: R.Tensor((), "float32")):
        a = R.nn.attention_var_len(q, q, q, sq, mq, causal_mask="TopLeft")
        c = R.nn.attention_var_len(q, q, q, sq, mq, sq, mq, scale=0.5)
        d = R.multinomial_from_uniform(p, u, i, dtype="int32")
        e = R.vision.all_class_non_max_suppression(b, s, m, t, t)
        f = R.vision.all_class_non_max_suppression(b, s, m, t, t, "tensorflow")
        return (a, c, d, e, f)


@I.ir_module
class Expected:
    @R.function
    def main(q: R.Tensor((1, 6, 2, 4), dtype="float32"), sq: R.Tensor((3,), dtype="int32"), mq: R.Tensor((), dtype="int32"), p: R.Tensor((2, 5), dtype="float32"), u: R.Tensor((3, 1), dtype="float32"), i: R.Tensor((3, 1), dtype="int64"), b: R.Tensor((1, 5, 4), dtype="float32"), s: R.Tensor((1, 2, 5), dtype="float32"), m: R.Tensor((), dtype="int64"), t: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((1, 6, 2, 4), dtype="float32"), R.Tensor((1, 6, 2, 4), dtype="float32"), R.Tensor((3, 1), dtype="int32"), R.Tuple(R.Tensor((10, 3), dtype="int64"), R.Tensor((1,), dtype="int64")), R.Tuple(R.Tensor((1, 10, 2), dtype="int64"), R.Tensor((1, 10), dtype="float32"), R.Tensor((1,), dtype="int64"))):
        none: R.Object = R.null_value()
        none_1: R.Object = R.null_value()
        a = R.call_dps_packed("graft.nn.attention_var_len", (q, q, q, sq, mq, none, R.str("TopLeft"), none_1), out_sinfo=R.Tensor((1, 6, 2, 4), dtype="float32"))
        none_2: R.Object = R.null_value()
        none_3: R.Object = R.null_value()
        c = R.call_dps_packed("graft.nn.attention_var_len", (q, q, q, sq, mq, sq, mq, R.prim_value(T.float64(0.5)), none_2, none_3), out_sinfo=R.Tensor((1, 6, 2, 4), dtype="float32"))
        d = R.call_dps_packed("graft.multinomial_from_uniform", (p, u, i), out_sinfo=R.Tensor((3, 1), dtype="int32"))
        e = R.call_dps_packed("graft.vision.all_class_non_max_suppression", (b, s, m, t, t, R.str("onnx")), out_sinfo=[R.Tensor((10, 3), dtype="int64"), R.Tensor((1,), dtype="int64")])
        f = R.call_dps_packed("graft.vision.all_class_non_max_suppression", (b, s, m, t, t, R.str("tensorflow")), out_sinfo=[R.Tensor((1, 10, 2), dtype="int64"), R.Tensor((1, 10), dtype="float32"), R.Tensor((1,), dtype="int64")])
        return (a, c, d, e, f)
