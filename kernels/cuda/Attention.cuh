//===- kernels/cuda/Attention.cuh - the flash attention kernels' pieces -----===//
//
// What the flash kernels of Attention.cu (sm_90) and AttentionWgmma.cu
// (sm_90a, wgmma) share: the launch parameters, the asynchronous copies,
// and the online softmax over one tile of kBN keys for the rows g and g + 8
// of 16 queries (the accumulator layout of mma.sync m16n8 and of each warp
// of a wgmma m64 warpgroup alike).
//
//===----------------------------------------------------------------------===//

#ifndef GRAFT_KERNELS_CUDA_ATTENTION_CUH
#define GRAFT_KERNELS_CUDA_ATTENTION_CUH

#include "kernels/cuda/Common.cuh"

#include <cmath>

namespace graft::cuda::attn {

/// Strides of one BSNH operand in elements: batch, sequence, head (the last
/// dim is contiguous for the flash kernel; the row kernel takes any).
struct Strides {
  int64_t b = 0, s = 0, n = 0, d = 1;
};

struct AttnParams {
  const void *q, *k, *v, *bias;
  void *o;
  Strides qs, ks, vs, os;
  int64_t bias4[4]; ///< Bias strides over (B, N, S, S_kv); 0 on a broadcast dim.
  int s, skv, n, group, h, hv;
  bool causal;
  int64_t offset; ///< Query i sees key j when j <= i + offset (with causal).
  float scale;
  double scaleD;
};

/// Keys per tile of every flash kernel.
constexpr int kBN = 64;

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// 16 bytes global -> shared; zero-filled when `valid` is false.
__device__ __forceinline__ void cpAsync16(void *dst, const void *src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smemAddr(dst)), "l"(src),
               "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cpAsyncCommit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/// 2^x by the hardware approximation (2 ulp; -inf gives +0), which the
/// softmax weights can take: they are rounded to 16 bits before P V.
__device__ __forceinline__ float exp2Approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

/// Two floats as one register of two T, the lower column in the low half.
template <class T> __device__ __forceinline__ uint32_t pack2(float lo, float hi) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  } else {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  }
}

/// One tile's raw scores in log2 units (raw with a positive scale, which
/// the weights fold in), for the rows g and g + 8 of a warp's 16 whose first
/// query is `row0`: keys past the end and above the diagonal become -inf.
template <bool PosScale>
__device__ __forceinline__ void maskScores(float (&s)[kBN / 8][4], const AttnParams &p, int key0,
                                           int64_t row0, float scaleLog2, int lane) {
  const int g = lane / 4, t = lane % 4;
  const bool edge = key0 + kBN > p.skv || (p.causal && int64_t(key0) + kBN - 1 > row0 + p.offset);
#pragma unroll
  for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float x = PosScale ? s[j][e] : s[j][e] * scaleLog2;
      if (edge) {
        int key = key0 + j * 8 + 2 * t + (e & 1);
        int64_t row = row0 + g + (e >> 1) * 8;
        if (key >= p.skv || (p.causal && key > row + p.offset))
          x = -INFINITY;
      }
      s[j][e] = x;
    }
}

/// Turns masked scores into softmax weights in place: raises the running
/// maxima `mx` (log2 units), adds the weights to `sum`, and gives each
/// row's factor for the output in `corrs`.
template <bool PosScale>
__device__ __forceinline__ void weighTile(float (&s)[kBN / 8][4], float (&mx)[2], float (&sum)[2],
                                          float (&corrs)[2], float scaleLog2) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float m = mx[r];
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j)
      m = fmaxf(m, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
    if (PosScale)
      m *= scaleLog2;
    // A row that has seen only masked keys keeps -inf; exp2 of -inf is 0.
    const float base = m == -INFINITY ? 0.f : m;
    const float corr = exp2Approx(mx[r] - base);
    mx[r] = m;
    float rowSum = 0.f;
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
      for (int e = 2 * r; e < 2 * r + 2; ++e) {
        float pe =
            PosScale ? exp2Approx(fmaf(s[j][e], scaleLog2, -base)) : exp2Approx(s[j][e] - base);
        s[j][e] = pe;
        rowSum += pe;
      }
    sum[r] = sum[r] * corr + rowSum;
    corrs[r] = corr;
  }
}

/// Rescales the output by each row's factor, unless every factor of the
/// warp is 1 (no maximum rose), as it mostly is once a few tiles passed.
template <int HD>
__device__ __forceinline__ void rescaleAcc(float (&acc)[HD / 8][4], const float (&corrs)[2]) {
  if (__any_sync(0xffffffffu, corrs[0] != 1.f || corrs[1] != 1.f)) {
#pragma unroll
    for (int d = 0; d < HD / 8; ++d) {
      acc[d][0] *= corrs[0];
      acc[d][1] *= corrs[0];
      acc[d][2] *= corrs[1];
      acc[d][3] *= corrs[1];
    }
  }
}

/// The wgmma kernel (AttentionWgmma.cu, sm_90a) for float16/bfloat16 at head
/// dim 128 under flashKernel's layout requirements. Returns
/// kWgmmaUnavailable, with nothing launched and no error left behind, when
/// the device cannot load its sm_90a image; else 0 or 1 as Ctx's calls.
/// `overlap`: each tile's P V runs on into the next tile's Q K^T.
constexpr int kWgmmaUnavailable = -1;
int launchWgmma(Ctx &ctx, const AttnParams &p, int b, bool bf16, bool overlap);

} // namespace graft::cuda::attn

#endif // GRAFT_KERNELS_CUDA_ATTENTION_CUH
