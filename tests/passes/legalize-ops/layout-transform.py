# layout_transform's index map becomes an R.shape of postfix programs
# (kernels/IndexMapPlan.h): [parameters, indices], then per index its tokens
# ending in 0 (1 parameter, 2 constant, 3 +, 5 *, 6 //, 7 %). pad_value
# follows, an unset one as R.null_value().
# PIPELINE: legalize-ops
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 6, 2, 2), "float32"), v: R.Tensor((6,), "int32")):
        a = R.layout_transform(x, index_map=lambda n, c, h, w: (n, c // 4, h, w, c % 4), pad_value=0.5)
        b = R.layout_transform(v, index_map=T.index_map(lambda i: (i // 4, i % 4), index_dtype="int32"))
        c = R.layout_transform(x, index_map=lambda n, c, h, w: (n * 6 + c, h, w))
        return (a, b, c)


@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 6, 2, 2), dtype="float32"), v: R.Tensor((6,), dtype="int32")) -> R.Tuple(R.Tensor((1, 2, 2, 2, 4), dtype="float32"), R.Tensor((2, 4), dtype="int32"), R.Tensor((6, 2, 2), dtype="float32")):
        a = R.call_dps_packed("graft.layout_transform", (x, R.shape([4, 5, 1, 0, 0, 1, 1, 2, 4, 6, 0, 1, 2, 0, 1, 3, 0, 1, 1, 2, 4, 7, 0]), R.prim_value(T.float64(0.5))), out_sinfo=R.Tensor((1, 2, 2, 2, 4), dtype="float32"))
        none: R.Object = R.null_value()
        b = R.call_dps_packed("graft.layout_transform", (v, R.shape([1, 2, 1, 0, 2, 4, 6, 0, 1, 0, 2, 4, 7, 0]), none), out_sinfo=R.Tensor((2, 4), dtype="int32"))
        none1: R.Object = R.null_value()
        c = R.call_dps_packed("graft.layout_transform", (x, R.shape([4, 3, 1, 0, 2, 6, 5, 1, 1, 3, 0, 1, 2, 0, 1, 3, 0]), none1), out_sinfo=R.Tensor((6, 2, 2), dtype="float32"))
        return (a, b, c)
