# One pre-norm transformer block with a symbolic sequence length: layer_norm,
# single-head attention from matmul and softmax, a residual, a masked copy
# (`out[mask] = src[mask]`, the index/index_put pair that fuse-masked-copy turns
# into one `where`) and a check on a device tensor (`R.assert_op`, which
# remove-device-asserts drops in a CUDA build). The upper bound on seq gives
# every intermediate a storage of constant size, so a CUDA build captures the
# block in one CUDA graph per value of seq (docs/cuda-graphs.md).
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(
        x: R.Tensor(("seq", 64), dtype="float32"),
        keep: R.Tensor(("seq", 64), dtype="bool"),
        gamma: R.Tensor((64,), dtype="float32"),
        beta: R.Tensor((64,), dtype="float32"),
        wq: R.Tensor((64, 64), dtype="float32"),
        wk: R.Tensor((64, 64), dtype="float32"),
        wv: R.Tensor((64, 64), dtype="float32"),
        wo: R.Tensor((64, 64), dtype="float32"),
    ) -> R.Tensor(("seq", 64), dtype="float32"):
        R.func_attr({"num_input": 2, "tir_var_upper_bound": {"seq": 2048}})
        seq = T.int64()
        with R.dataflow():
            ln = R.nn.layer_norm(x, gamma, beta, axes=[-1], epsilon=1e-5)
            q = R.matmul(ln, wq)
            k = R.matmul(ln, wk)
            v = R.matmul(ln, wv)
            kt = R.permute_dims(k, axes=[1, 0])
            scores = R.matmul(q, kt)
            scaled = R.multiply(scores, R.const(0.125, "float32"))
            attn = R.nn.softmax(scaled, axis=-1)
            ctx = R.matmul(attn, v)
            proj = R.matmul(ctx, wo)
            y = R.add(x, proj)
            picked = R.index_tensor(x, (keep,))
            out = R.index_put(y, (keep,), picked, accumulate=False)
            huge = R.greater_equal(R.abs(out), R.const(1e30, "float32"))
            count = R.sum(R.astype(huge, "int32"))
            all_finite = R.equal(count, R.const(0, "int32"))
            R.output(out, all_finite)
        R.assert_op(all_finite, format="the block produced a non-finite value")
        return out
