# Sub-byte and vector dtypes (TVM's quantized weights: int4x8 packs eight int4 lanes).
@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor(("p", "q"), dtype="int4x8"),
        b: R.Tensor((4,), dtype="float16x4"),
        c: R.Tensor((2, 2), dtype="uint2"),
    ) -> R.Tuple(R.Tensor(("p", "q"), dtype="int4x8"), R.Tensor((4,), dtype="float16x4")):
        p = T.int64()
        s = R.strided_slice(a, axes=[0], begin=[p - 1], end=[p])
        return (a, b)
