# attention passes query, key, value and the optional bias as inputs, then
# scale, causal_mask and window_size; an unset one is a null value.
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(q: R.Tensor((2, 4, 8, 16), "float16"), k: R.Tensor((2, 6, 2, 16), "float16"), v: R.Tensor((2, 6, 2, 8), "float16"), b: R.Tensor((1, 8, 1, 6), "float16")):
        a = R.nn.attention(q, k, v)
        c = R.nn.attention(q, k, v, b, scale=0.25, causal_mask="BottomRight")
        return (a, c)


@I.ir_module
class Expected:
    @R.function
    def main(q: R.Tensor((2, 4, 8, 16), dtype="float16"), k: R.Tensor((2, 6, 2, 16), dtype="float16"), v: R.Tensor((2, 6, 2, 8), dtype="float16"), b: R.Tensor((1, 8, 1, 6), dtype="float16")) -> R.Tuple(R.Tensor((2, 4, 8, 8), dtype="float16"), R.Tensor((2, 4, 8, 8), dtype="float16")):
        none: R.Object = R.null_value()
        none_1: R.Object = R.null_value()
        none_2: R.Object = R.null_value()
        a = R.call_dps_packed("graft.nn.attention", (q, k, v, none, none_1, none_2), out_sinfo=R.Tensor((2, 4, 8, 8), dtype="float16"))
        none_3: R.Object = R.null_value()
        c = R.call_dps_packed("graft.nn.attention", (q, k, v, b, R.prim_value(T.float64(0.25)), R.str("BottomRight"), none_3), out_sinfo=R.Tensor((2, 4, 8, 8), dtype="float16"))
        return (a, c)
