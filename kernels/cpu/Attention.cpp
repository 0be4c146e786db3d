//===- kernels/cpu/Attention.cpp - nn.attention, the reference kernel ------===//
//
// softmax(Q K^T * scale + bias, masked) V over BSNH tensors, one query row
// at a time, everything in double and each output rounded once to its
// dtype: the oracle the CUDA kernel is tested against. Key/value heads may
// be fewer than query heads (grouped-query attention): query head n reads
// key/value head n / (N / N_kv). A masked key never enters the softmax; the
// causal masks always leave key 0, so a row is empty only without keys (its
// output is then 0).
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cmath>

namespace graft::kernels::cpu {
namespace {

/// Keys a query row may attend to: j <= i + offset (no mask: all).
struct CausalMask {
  bool on = false;
  int64_t offset = 0;
};

/// Reads the causal_mask attr (TVM's TopLeft/BottomRight): TopLeft keeps
/// key j for query i when j <= i, BottomRight when j <= i + |S - S_kv|
/// (TVM's legalization, python/tvm/relax/transform/legalize_ops/nn.py).
std::optional<CausalMask> causalMask(Ctx &ctx, int64_t s, int64_t skv) {
  if (!ctx.hasAttr(1))
    return CausalMask{};
  std::string kind = ctx.strAttr(1, "causal_mask");
  if (!ctx.ok())
    return std::nullopt;
  if (kind == "TopLeft")
    return CausalMask{true, 0};
  if (kind == "BottomRight")
    return CausalMask{true, s > skv ? s - skv : skv - s};
  ctx.fail("causal_mask must be \"TopLeft\" or \"BottomRight\", got \"" + kind + "\"");
  return std::nullopt;
}

/// graft.nn.attention takes an optional bias (3 or 4 inputs);
/// graft.nn.attention_bias, the kernel of TVM's attention_bias op, 4.
template <bool BiasOp> llvm::Error attentionKernel(const KernelArgs &args) {
  Ctx ctx(args, BiasOp ? "graft.nn.attention_bias" : "graft.nn.attention");
  if (!ctx.checkArity(BiasOp ? 4 : -1, 1, 3))
    return ctx.error();
  if (ctx.numIn() > 4)
    return ctx.reject("expects 3 or 4 inputs (query, key, value, bias), got " +
                      llvm::Twine(ctx.numIn()));
  const char *names[] = {"query", "key", "value", "bias"};
  ScalarType t = ctx.inType(0);
  if (!isFloatType(t))
    return ctx.reject("takes floating-point tensors, got " + dtypeName(dlTypeOf(t)));
  for (size_t i = 0; i < ctx.numIn(); ++i) {
    if (!ctx.expectSameType(ctx.inType(i), t, names[i]))
      return ctx.error();
    if (ctx.in(i).ndim != 4)
      return ctx.reject(llvm::Twine(names[i]) + " must be 4-D (batch, sequence, heads, head dim)" +
                        ", got shape " + shapeStr(shapeOf(ctx.in(i))));
  }
  View q = ctx.inView(0), k = ctx.inView(1), v = ctx.inView(2), out = ctx.outView(0);
  int64_t b = q.shape[0], s = q.shape[1], n = q.shape[2], h = q.shape[3];
  int64_t skv = k.shape[1], nkv = k.shape[2], hv = v.shape[3];
  if (k.shape[0] != b || v.shape[0] != b || v.shape[1] != skv || v.shape[2] != nkv ||
      k.shape[3] != h)
    return ctx.reject("query " + shapeStr(q.shape) + ", key " + shapeStr(k.shape) + " and value " +
                      shapeStr(v.shape) + " do not agree: key and value need the query's batch" +
                      " and head dim (key) and one sequence length and head count");
  if (nkv == 0 || n % nkv != 0)
    return ctx.reject("the query's " + llvm::Twine(n) + " heads are not a multiple of the key's " +
                      llvm::Twine(nkv));
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0") || !ctx.expectOutShape(0, {b, s, n, hv}))
    return ctx.error();
  std::optional<View> bias;
  if (ctx.numIn() == 4) {
    bias = ctx.broadcast(ctx.inView(3), {b, n, s, skv}, "bias");
    if (!bias)
      return ctx.error();
  }
  double scale = ctx.floatAttr(0, "scale", 1.0 / std::sqrt(double(h)));
  auto mask = causalMask(ctx, s, skv);
  if (!mask)
    return ctx.error();
  if (ctx.hasAttr(2))
    return ctx.reject("sliding-window attention (window_size) is not supported");
  if (!ctx.ok())
    return ctx.error();

  Loader<double> load = loaderFor<double>(t);
  Storer<double> store = storerFor<double>(t);
  int64_t group = n / nkv;
  std::vector<double> score(static_cast<size_t>(skv)), acc(static_cast<size_t>(hv));
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t ni = 0; ni < n; ++ni)
      for (int64_t i = 0; i < s; ++i) {
        int64_t kvh = ni / group;
        char *qrow = q.ptr({bi, i, ni, 0});
        int64_t keys = mask->on ? std::min(skv, i + mask->offset + 1) : skv;
        double mx = -INFINITY;
        for (int64_t j = 0; j < keys; ++j) {
          char *krow = k.ptr({bi, j, kvh, 0});
          double dot = 0;
          for (int64_t d = 0; d < h; ++d)
            dot += load(qrow + d * q.strides[3]) * load(krow + d * k.strides[3]);
          double x = dot * scale;
          if (bias)
            x += load(bias->ptr({bi, ni, i, j}));
          score[size_t(j)] = x;
          mx = std::max(mx, x);
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        double sum = 0;
        for (int64_t j = 0; j < keys; ++j) {
          double p = std::exp(score[size_t(j)] - mx);
          sum += p;
          char *vrow = v.ptr({bi, j, kvh, 0});
          for (int64_t d = 0; d < hv; ++d)
            acc[size_t(d)] += p * load(vrow + d * v.strides[3]);
        }
        char *orow = out.ptr({bi, i, ni, 0});
        for (int64_t d = 0; d < hv; ++d)
          store(orow + d * out.strides[3], keys ? acc[size_t(d)] / sum : 0.0);
      }
  return llvm::Error::success();
}

const llvm::StringRef kAttentionAttrs[] = {"scale", "causal_mask", "window_size"};

} // namespace

void registerAttentionKernels() {
  static const KernelInfo kernels[] = {
      {"graft.nn.attention", -1, 1, kAttentionAttrs, &attentionKernel<false>},
      {"graft.nn.attention_bias", 4, 1, kAttentionAttrs, &attentionKernel<true>},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
