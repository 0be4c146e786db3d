# nn.attention_var_len, multinomial_from_uniform and
# vision.all_class_non_max_suppression, TVM's spellings: the var_len
# wrapper's order (max_seqlen_q before the optional key starts), the sampled
# index dtype, both NMS output formats; each binding's annotation is the
# inferred struct info.
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class SamplingVision:
    @R.function
    def var_len(q: R.Tensor((1, "t", 8, 64), "float16"), k: R.Tensor((1, "u", 2, 64), "float16"), v: R.Tensor((1, "u", 2, 32), "float16"), sq: R.Tensor((4,), "int32"), mq: R.Tensor((), "int32"), sk: R.Tensor((4,), "int32"), mk: R.Tensor((), "int32")) -> R.Tensor((1, "t", 8, 32), "float16"):
        t = T.int64()
        u = T.int64()
        a: R.Tensor((1, t, 8, 32), "float16") = R.nn.attention_var_len(q, k, v, sq, mq)
        b: R.Tensor((1, t, 8, 32), "float16") = R.nn.attention_var_len(q, k, v, sq, mq, sk, mk, causal_mask="BottomRight")
        c: R.Tensor((1, t, 8, 32), "float16") = R.nn.attention_var_len(q, k, v, sq, mq, seqstart_k=sk, max_seqlen_k=mk, scale=0.125, causal_mask="TopLeft", window_size=None)
        return c

    @R.function
    def sample(prob: R.Tensor((3, 5), "float32"), u: R.Tensor((6, 1), "float32"), s: R.Tensor((6, 1), "int64"), p2: R.Tensor(ndim=2, dtype="float16"), u2: R.Tensor(ndim=2, dtype="float64"), s2: R.Tensor((6, 1), "int32"), p3: R.Tensor(dtype="float32")) -> R.Tensor((6, 1), "int64"):
        a: R.Tensor((6, 1), "int64") = R.multinomial_from_uniform(prob, u, s)
        b: R.Tensor((6, 1), "int32") = R.multinomial_from_uniform(prob, u, s, dtype="int32")
        c: R.Tensor(ndim=2, dtype="int64") = R.multinomial_from_uniform(p2, u2, s2)
        d: R.Tensor(dtype="int64") = R.multinomial_from_uniform(p3, u, s)
        return a

    @R.function
    def nms(boxes: R.Tensor((10, 5, 4), "float32"), scores: R.Tensor((10, 8, 5), "float32"), b2: R.Tensor(("b", "n", 4), "float32"), s2: R.Tensor(("b", "c", "n"), "float32")) -> R.Tuple(R.Tensor((400, 3), "int64"), R.Tensor((1,), "int64")):
        b = T.int64()
        c = T.int64()
        n = T.int64()
        m = R.const(10, "int64")
        iou = R.const(0.5, "float32")
        st = R.const(0.1, "float32")
        x: R.Tuple(R.Tensor((400, 3), "int64"), R.Tensor((1,), "int64")) = R.vision.all_class_non_max_suppression(boxes, scores, m, iou, st)
        y: R.Tuple(R.Tensor((10, 40, 2), "int64"), R.Tensor((10, 40), "float32"), R.Tensor((10,), "int64")) = R.vision.all_class_non_max_suppression(boxes, scores, m, iou, st, output_format="tensorflow")
        z: R.Tuple(R.Tensor((b * c * n, 3), "int64"), R.Tensor((1,), "int64")) = R.vision.all_class_non_max_suppression(b2, s2, m, iou, st, "onnx")
        w: R.Tuple(R.Tensor((b, c * n, 2), "int64"), R.Tensor((b, c * n), "float32"), R.Tensor((b,), "int64")) = R.vision.all_class_non_max_suppression(b2, s2, m, iou, st, "tensorflow")
        return x
