//===- kernels/cuda/AttentionVarLen.cu - nn.attention_var_len -------------===//
//
// Attention over sequences concatenated along axis 1, with the CPU kernel's
// results (kernels/cpu/Attention.cpp): one thread per (query row, head)
// finds its sequence in seqstart_q, scores the sequence's keys in double
// (two passes: the maximum, then the weights), and accumulates the values
// 16 head dims at a time. Every operation is an explicitly rounded double
// intrinsic in the CPU kernel's order, so nothing contracts into a fused
// multiply-add; only exp may differ from the host's in the last bit of a
// double. The starts are not read back to be checked: a start out of order
// or past the sequence axis gives unspecified rows (never an access outside
// the tensors), where the CPU kernel reports it.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <cmath>
#include <string>

namespace graft::cuda {
namespace {

constexpr int kThreads = 128;
/// Output head dims accumulated per pass over the keys.
constexpr int kChunk = 16;

struct VarLenPlan {
  const char *q = nullptr, *k = nullptr, *v = nullptr, *sq = nullptr, *sk = nullptr;
  char *out = nullptr;
  ScalarType t = ScalarType::Float32, sqT = ScalarType::Int32, skT = ScalarType::Int32;
  int64_t qs[4] = {}, ks[4] = {}, vs[4] = {}, os[4] = {}; ///< Bytes.
  int64_t sqStride = 0, skStride = 0;                     ///< Bytes.
  int64_t tokens = 0, heads = 0, h = 0, nkv = 1, hv = 0, totalK = 0, numStarts = 0;
  double scale = 1;
  bool causal = false, bottomRight = false;
};

__device__ inline double scoreOf(const VarLenPlan &p, const char *qrow, int64_t key, int64_t kvh) {
  const char *krow = p.k + key * p.ks[1] + kvh * p.ks[2];
  double dot = 0;
  for (int64_t d = 0; d < p.h; ++d)
    dot = __dadd_rn(dot, __dmul_rn(loadAs<double>(qrow + d * p.qs[3], p.t),
                                   loadAs<double>(krow + d * p.ks[3], p.t)));
  return __dmul_rn(dot, p.scale);
}

__global__ void __launch_bounds__(kThreads) attentionVarLenKernel(VarLenPlan p) {
  awaitUpstream();
  int64_t total = p.tokens * p.heads, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t item = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; item < total;
       item += stride) {
    int64_t tok = item / p.heads, ni = item - tok * p.heads;
    char *orow = p.out + tok * p.os[1] + ni * p.os[2];
    int64_t seq = -1;
    for (int64_t i = 0; i + 1 < p.numStarts && seq < 0; ++i)
      if (loadAs<int64_t>(p.sq + i * p.sqStride, p.sqT) <= tok &&
          tok < loadAs<int64_t>(p.sq + (i + 1) * p.sqStride, p.sqT))
        seq = i;
    if (seq < 0) {
      for (int64_t d = 0; d < p.hv; ++d)
        storeAs(orow + d * p.os[3], p.t, 0.0);
      continue;
    }
    int64_t q0 = loadAs<int64_t>(p.sq + seq * p.sqStride, p.sqT);
    int64_t s = loadAs<int64_t>(p.sq + (seq + 1) * p.sqStride, p.sqT) - q0;
    int64_t k0 = loadAs<int64_t>(p.sk + seq * p.skStride, p.skT);
    int64_t skv = loadAs<int64_t>(p.sk + (seq + 1) * p.skStride, p.skT) - k0;
    // Keep unchecked starts inside the key tensor.
    k0 = k0 < 0 ? 0 : k0 > p.totalK ? p.totalK : k0;
    skv = skv < 0 ? 0 : skv > p.totalK - k0 ? p.totalK - k0 : skv;
    int64_t offset = p.bottomRight ? (s > skv ? s - skv : skv - s) : 0;
    int64_t row = tok - q0;
    int64_t keys = p.causal ? (row + offset + 1 < skv ? row + offset + 1 : skv) : skv;
    int64_t kvh = ni / (p.heads / p.nkv);
    const char *qrow = p.q + tok * p.qs[1] + ni * p.qs[2];
    double mx = -INFINITY;
    for (int64_t j = 0; j < keys; ++j) {
      double x = scoreOf(p, qrow, k0 + j, kvh);
      mx = mx < x ? x : mx;
    }
    for (int64_t d0 = 0; d0 < p.hv; d0 += kChunk) {
      double acc[kChunk];
      for (int c = 0; c < kChunk; ++c)
        acc[c] = 0;
      double sum = 0;
      for (int64_t j = 0; j < keys; ++j) {
        double w = exp(__dsub_rn(scoreOf(p, qrow, k0 + j, kvh), mx));
        sum = __dadd_rn(sum, w);
        const char *vrow = p.v + (k0 + j) * p.vs[1] + kvh * p.vs[2];
        for (int c = 0; c < kChunk; ++c)
          if (d0 + c < p.hv)
            acc[c] =
                __dadd_rn(acc[c], __dmul_rn(w, loadAs<double>(vrow + (d0 + c) * p.vs[3], p.t)));
      }
      for (int c = 0; c < kChunk; ++c)
        if (d0 + c < p.hv)
          storeAs(orow + (d0 + c) * p.os[3], p.t, keys > 0 ? __ddiv_rn(acc[c], sum) : 0.0);
    }
  }
}

void byteStrides(const DLTensor &t, int64_t *out) {
  elementStrides(t, out);
  for (int d = 0; d < t.ndim; ++d)
    out[d] *= (t.dtype.bits + 7) / 8;
}

/// A 1-D integer tensor of sequence starts.
int checkStarts(Ctx &ctx, const DLTensor &s, const char *name) {
  ScalarType t = scalarTypeOf(s.dtype);
  if (t == ScalarType::Invalid || t == ScalarType::Bool || isFloatType(t) || s.ndim != 1 ||
      s.shape[0] < 1)
    return ctx.fail(std::string(name) +
                    " must be a 1-D integer tensor of at least one element, got " +
                    dtypeName(s.dtype) + " " + shapeStr(s));
  return 0;
}

int attentionVarLen(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.attention_var_len", err);
  if (int rc = ctx.checkArity(-1, 1))
    return rc;
  if (ctx.numInputs() < 5 || ctx.numInputs() > 7)
    return ctx.fail("expects 5 to 7 inputs (queries, keys, values, seqstart_q, max_seqlen_q, "
                    "seqstart_k, max_seqlen_k), got " +
                    std::to_string(ctx.numInputs()));
  const DLTensor &q = ctx.in(0), &k = ctx.in(1), &v = ctx.in(2), &out = ctx.out(0);
  VarLenPlan p;
  p.t = scalarTypeOf(q.dtype);
  if (!isFloatType(p.t))
    return ctx.fail("takes floating-point tensors, got " + dtypeName(q.dtype));
  const char *names[] = {"query", "key", "value"};
  for (int i = 0; i < 3; ++i) {
    if (scalarTypeOf(ctx.in(i).dtype) != p.t)
      return ctx.fail(std::string(names[i]) + " has dtype " + dtypeName(ctx.in(i).dtype) +
                      ", expected " + dtypeName(q.dtype));
    if (ctx.in(i).ndim != 4)
      return ctx.fail(std::string(names[i]) +
                      " must be 4-D (batch, sequence, heads, head dim), got shape " +
                      shapeStr(ctx.in(i)));
  }
  if (q.shape[0] != 1)
    return ctx.fail("expects a batch of 1 (the sequences concatenated along axis 1), got " +
                    shapeStr(q));
  p.tokens = q.shape[1], p.heads = q.shape[2], p.h = q.shape[3];
  p.totalK = k.shape[1], p.nkv = k.shape[2], p.hv = v.shape[3];
  if (k.shape[0] != 1 || v.shape[0] != 1 || v.shape[1] != p.totalK || v.shape[2] != p.nkv ||
      k.shape[3] != p.h)
    return ctx.fail("query " + shapeStr(q) + ", key " + shapeStr(k) + " and value " + shapeStr(v) +
                    " do not agree");
  if (p.nkv == 0 || p.heads % p.nkv != 0)
    return ctx.fail("the query's " + std::to_string(p.heads) +
                    " heads are not a multiple of the key's " + std::to_string(p.nkv));
  if (scalarTypeOf(out.dtype) != p.t || out.ndim != 4 || out.shape[0] != 1 ||
      out.shape[1] != p.tokens || out.shape[2] != p.heads || out.shape[3] != p.hv)
    return ctx.fail("output is " + dtypeName(out.dtype) + " " + shapeStr(out) + ", expected " +
                    dtypeName(q.dtype) + " (1, " + std::to_string(p.tokens) + ", " +
                    std::to_string(p.heads) + ", " + std::to_string(p.hv) + ")");
  if (!ctx.floatAttr(0, "scale", 1.0 / std::sqrt(double(p.h)), p.scale))
    return 1;
  if (ctx.hasAttr(1)) {
    if (ctx.attr(1).kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'causal_mask' must be a string");
    std::string kind = ctx.attr(1).s;
    if (kind != "TopLeft" && kind != "BottomRight")
      return ctx.fail("causal_mask must be \"TopLeft\" or \"BottomRight\", got \"" + kind + "\"");
    p.causal = true;
    p.bottomRight = kind == "BottomRight";
  }
  if (ctx.hasAttr(2))
    return ctx.fail("sliding-window attention (window_size) is not supported");
  const DLTensor &sq = ctx.in(3), &sk = ctx.in(ctx.numInputs() > 5 ? 5 : 3);
  if (int rc = checkStarts(ctx, sq, "seqstart_q"))
    return rc;
  if (int rc = checkStarts(ctx, sk, "seqstart_k"))
    return rc;
  if (sk.shape[0] != sq.shape[0])
    return ctx.fail("seqstart_q has " + std::to_string(sq.shape[0]) + " entries, seqstart_k " +
                    std::to_string(sk.shape[0]));
  p.numStarts = sq.shape[0];
  p.q = dataOf(q), p.k = dataOf(k), p.v = dataOf(v), p.out = dataOf(out);
  p.sq = dataOf(sq), p.sk = dataOf(sk);
  p.sqT = scalarTypeOf(sq.dtype), p.skT = scalarTypeOf(sk.dtype);
  byteStrides(q, p.qs), byteStrides(k, p.ks), byteStrides(v, p.vs), byteStrides(out, p.os);
  int64_t st[kMaxDims];
  byteStrides(sq, st);
  p.sqStride = st[0];
  byteStrides(sk, st);
  p.skStride = st[0];
  int64_t n = p.tokens * p.heads;
  if (n == 0 || p.hv == 0)
    return 0;
  attentionVarLenKernel<<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("attentionVarLenKernel");
}

const char *const kVarLenAttrs[] = {"scale", "causal_mask", "window_size"};

} // namespace

void addAttentionVarLenKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.nn.attention_var_len", -1, 1, kVarLenAttrs, 3, attentionVarLen, nullptr});
}

} // namespace graft::cuda
