//===- kernels/cpu/Attention.cpp - nn.attention, the reference kernel ------===//
//
// softmax(Q K^T * scale + bias, masked) V over BSNH tensors, one query row
// at a time, everything in double and each output rounded once to its
// dtype: the oracle the CUDA kernel is tested against. Key/value heads may
// be fewer than query heads (grouped-query attention): query head n reads
// key/value head n / (N / N_kv). A masked key never enters the softmax; the
// causal masks always leave key 0, so a row is empty only without keys (its
// output is then 0). nn.attention_var_len runs the same loop per sequence
// of its concatenated operands.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cmath>
#include <vector>

namespace graft::kernels::cpu {
namespace {

/// Keys a query row may attend to: j <= i + offset (no mask: all).
struct CausalMask {
  bool on = false;
  bool bottomRight = false;
  /// The offset for a sequence of s queries and skv keys: TopLeft keeps key
  /// j for query i when j <= i, BottomRight when j <= i + |S - S_kv| (TVM's
  /// legalization, python/tvm/relax/transform/legalize_ops/nn.py).
  int64_t offset(int64_t s, int64_t skv) const {
    return bottomRight ? (s > skv ? s - skv : skv - s) : 0;
  }
};

/// Reads the causal_mask attr (TVM's TopLeft/BottomRight).
std::optional<CausalMask> causalMask(Ctx &ctx) {
  if (!ctx.hasAttr(1))
    return CausalMask{};
  std::string kind = ctx.strAttr(1, "causal_mask");
  if (!ctx.ok())
    return std::nullopt;
  if (kind == "TopLeft" || kind == "BottomRight")
    return CausalMask{true, kind == "BottomRight"};
  ctx.fail("causal_mask must be \"TopLeft\" or \"BottomRight\", got \"" + kind + "\"");
  return std::nullopt;
}

/// One sequence of one batch entry: queries [q0, q0 + s) attend to keys
/// [k0, k0 + skv) along the sequence axis; the bias (when given) is indexed
/// by positions within the sequence.
struct Sequence {
  int64_t batch = 0, q0 = 0, s = 0, k0 = 0, skv = 0;
};

struct AttentionViews {
  View q, k, v, out;
  std::optional<View> bias;
  Loader<double> load;
  Storer<double> store;
};

void attendSequence(const AttentionViews &a, const Sequence &seq, double scale, CausalMask mask,
                    std::vector<double> &score, std::vector<double> &acc) {
  const View &q = a.q, &k = a.k, &v = a.v, &out = a.out;
  int64_t n = q.shape[2], h = q.shape[3], nkv = k.shape[2], hv = v.shape[3];
  int64_t group = n / nkv, offset = mask.offset(seq.s, seq.skv), bi = seq.batch;
  score.resize(size_t(seq.skv));
  acc.resize(size_t(hv));
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t i = 0; i < seq.s; ++i) {
      int64_t kvh = ni / group;
      char *qrow = q.ptr({bi, seq.q0 + i, ni, 0});
      int64_t keys = mask.on ? std::min(seq.skv, i + offset + 1) : seq.skv;
      double mx = -INFINITY;
      for (int64_t j = 0; j < keys; ++j) {
        char *krow = k.ptr({bi, seq.k0 + j, kvh, 0});
        double dot = 0;
        for (int64_t d = 0; d < h; ++d)
          dot += a.load(qrow + d * q.strides[3]) * a.load(krow + d * k.strides[3]);
        double x = dot * scale;
        if (a.bias)
          x += a.load(a.bias->ptr({bi, ni, i, j}));
        score[size_t(j)] = x;
        mx = std::max(mx, x);
      }
      std::fill(acc.begin(), acc.end(), 0.0);
      double sum = 0;
      for (int64_t j = 0; j < keys; ++j) {
        double p = std::exp(score[size_t(j)] - mx);
        sum += p;
        char *vrow = v.ptr({bi, seq.k0 + j, kvh, 0});
        for (int64_t d = 0; d < hv; ++d)
          acc[size_t(d)] += p * a.load(vrow + d * v.strides[3]);
      }
      char *orow = out.ptr({bi, seq.q0 + i, ni, 0});
      for (int64_t d = 0; d < hv; ++d)
        a.store(orow + d * out.strides[3], keys > 0 ? acc[size_t(d)] / sum : 0.0);
    }
}

/// Checks query, key and value (float, one dtype, 4-D, agreeing dims) and
/// the output (the query's dtype, (B, S, N, H_v)); fills the views.
bool attentionOperands(Ctx &ctx, AttentionViews &a) {
  const char *names[] = {"query", "key", "value"};
  ScalarType t = ctx.inType(0);
  if (!isFloatType(t))
    return ctx.fail("takes floating-point tensors, got " + dtypeName(dlTypeOf(t)));
  for (size_t i = 0; i < 3; ++i) {
    if (!ctx.expectSameType(ctx.inType(i), t, names[i]))
      return false;
    if (ctx.in(i).ndim != 4)
      return ctx.fail(llvm::Twine(names[i]) + " must be 4-D (batch, sequence, heads, head dim)" +
                      ", got shape " + shapeStr(shapeOf(ctx.in(i))));
  }
  a.q = ctx.inView(0), a.k = ctx.inView(1), a.v = ctx.inView(2), a.out = ctx.outView(0);
  int64_t b = a.q.shape[0], s = a.q.shape[1], n = a.q.shape[2], h = a.q.shape[3];
  int64_t skv = a.k.shape[1], nkv = a.k.shape[2], hv = a.v.shape[3];
  if (a.k.shape[0] != b || a.v.shape[0] != b || a.v.shape[1] != skv || a.v.shape[2] != nkv ||
      a.k.shape[3] != h)
    return ctx.fail("query " + shapeStr(a.q.shape) + ", key " + shapeStr(a.k.shape) +
                    " and value " + shapeStr(a.v.shape) +
                    " do not agree: key and value need the query's batch" +
                    " and head dim (key) and one sequence length and head count");
  if (nkv == 0 || n % nkv != 0)
    return ctx.fail("the query's " + llvm::Twine(n) + " heads are not a multiple of the key's " +
                    llvm::Twine(nkv));
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0") || !ctx.expectOutShape(0, {b, s, n, hv}))
    return false;
  a.load = loaderFor<double>(t);
  a.store = storerFor<double>(t);
  return true;
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
  AttentionViews a;
  if (!attentionOperands(ctx, a))
    return ctx.error();
  if (ctx.numIn() == 4 && !ctx.expectSameType(ctx.inType(3), a.q.type, "bias"))
    return ctx.error();
  int64_t b = a.q.shape[0], s = a.q.shape[1], n = a.q.shape[2], h = a.q.shape[3];
  int64_t skv = a.k.shape[1];
  if (ctx.numIn() == 4) {
    a.bias = ctx.broadcast(ctx.inView(3), {b, n, s, skv}, "bias");
    if (!a.bias)
      return ctx.error();
  }
  double scale = ctx.floatAttr(0, "scale", 1.0 / std::sqrt(double(h)));
  auto mask = causalMask(ctx);
  if (!mask)
    return ctx.error();
  if (ctx.hasAttr(2))
    return ctx.reject("sliding-window attention (window_size) is not supported");
  if (!ctx.ok())
    return ctx.error();
  std::vector<double> score, acc;
  for (int64_t bi = 0; bi < b; ++bi)
    attendSequence(a, {bi, 0, s, 0, skv}, scale, *mask, score, acc);
  return llvm::Error::success();
}

/// Reads a 1-D integer tensor of sequence starts: `count` entries, from 0
/// ... nondecreasing, the last at most `total`.
std::optional<std::vector<int64_t>> seqStarts(Ctx &ctx, size_t i, const char *name, int64_t total) {
  View st = ctx.inView(i);
  if (!isIntType(st.type) || st.ndim() != 1 || st.shape[0] < 1) {
    ctx.fail(llvm::Twine(name) + " must be a 1-D integer tensor of at least one element, got " +
             dtypeName(dlTypeOf(st.type)) + " " + shapeStr(st.shape));
    return std::nullopt;
  }
  Loader<int64_t> load = loaderFor<int64_t>(st.type);
  std::vector<int64_t> v(size_t(st.shape[0]));
  for (int64_t j = 0; j < st.shape[0]; ++j) {
    v[size_t(j)] = load(st.ptr({j}));
    int64_t prev = j ? v[size_t(j - 1)] : 0;
    if (v[size_t(j)] < prev || v[size_t(j)] > total) {
      ctx.fail(llvm::Twine(name) + "[" + llvm::Twine(j) + "] is " + llvm::Twine(v[size_t(j)]) +
               ": the starts must be nondecreasing from 0 and at most " + llvm::Twine(total));
      return std::nullopt;
    }
  }
  return v;
}

/// graft.nn.attention_var_len: inputs queries, keys, values (1, total, N,
/// H), seqstart_q, max_seqlen_q, then optionally seqstart_k and
/// max_seqlen_k (the query's when absent). Sequence i is queries
/// [seqstart_q[i], seqstart_q[i+1]) against keys [seqstart_k[i],
/// seqstart_k[i+1]), each with its own causal mask; query rows past the last
/// start belong to no sequence and are 0. The maximum lengths only size
/// TVM's CUTLASS launch; they are not read.
llvm::Error attentionVarLenKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.attention_var_len");
  if (!ctx.checkArity(-1, 1, 5))
    return ctx.error();
  if (ctx.numIn() > 7)
    return ctx.reject("expects 5 to 7 inputs (queries, keys, values, seqstart_q, max_seqlen_q, "
                      "seqstart_k, max_seqlen_k), got " +
                      llvm::Twine(ctx.numIn()));
  AttentionViews a;
  if (!attentionOperands(ctx, a))
    return ctx.error();
  if (a.q.shape[0] != 1)
    return ctx.reject("expects a batch of 1 (the sequences concatenated along axis 1), got " +
                      shapeStr(a.q.shape));
  double scale = ctx.floatAttr(0, "scale", 1.0 / std::sqrt(double(a.q.shape[3])));
  auto mask = causalMask(ctx);
  if (!mask)
    return ctx.error();
  if (ctx.hasAttr(2))
    return ctx.reject("sliding-window attention (window_size) is not supported");
  auto sq = seqStarts(ctx, 3, "seqstart_q", a.q.shape[1]);
  if (!sq)
    return ctx.error();
  auto sk = seqStarts(ctx, ctx.numIn() > 5 ? 5 : 3, "seqstart_k", a.k.shape[1]);
  if (!sk || !ctx.ok())
    return ctx.error();
  if (sk->size() != sq->size())
    return ctx.reject("seqstart_q has " + llvm::Twine(sq->size()) + " entries, seqstart_k " +
                      llvm::Twine(sk->size()));
  // Rows outside every sequence: 0.
  int64_t n = a.q.shape[2], hv = a.v.shape[3];
  auto zeroRows = [&](int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i)
      for (int64_t ni = 0; ni < n; ++ni)
        for (int64_t d = 0; d < hv; ++d)
          a.store(a.out.ptr({0, i, ni, d}), 0.0);
  };
  zeroRows(0, sq->front());
  zeroRows(sq->back(), a.q.shape[1]);
  std::vector<double> score, acc;
  for (size_t i = 0; i + 1 < sq->size(); ++i)
    attendSequence(a, {0, (*sq)[i], (*sq)[i + 1] - (*sq)[i], (*sk)[i], (*sk)[i + 1] - (*sk)[i]},
                   scale, *mask, score, acc);
  return llvm::Error::success();
}

const llvm::StringRef kAttentionAttrs[] = {"scale", "causal_mask", "window_size"};

} // namespace

void registerAttentionKernels() {
  static const KernelInfo kernels[] = {
      {"graft.nn.attention", -1, 1, kAttentionAttrs, &attentionKernel<false>},
      {"graft.nn.attention_bias", 4, 1, kAttentionAttrs, &attentionKernel<true>},
      {"graft.nn.attention_var_len", -1, 1, kAttentionAttrs, &attentionVarLenKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
