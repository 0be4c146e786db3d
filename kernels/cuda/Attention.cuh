//===- kernels/cuda/Attention.cuh - the flash attention kernels' pieces -----===//
//
// What the flash kernels of Attention.cu (sm_90) and AttentionWgmma.cu
// (sm_90a, wgmma) share: the launch parameters, the asynchronous copies,
// the online softmax over one tile of kBN keys and the output's epilogue,
// both for any number of 16-query m-tiles per warp.
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

/// The online softmax and the epilogue below work on the fragments of M
/// m-tiles of 16 queries per warp (flashKernel holds two, the v5 and wgmma
/// kernels one; the accumulator layout is mma.sync m16n8's, and each warp's
/// of a wgmma m64 warpgroup alike): s[i], acc[i], mx[i] and sum[i] are
/// m-tile i's, whose rows g and g + 8 this thread holds, and `row0` is the
/// warp's first query.

/// One tile's raw scores in log2 units (raw with a positive scale, which
/// the weights fold in): keys past the end and above the diagonal become
/// -inf. Whether any key needs the test is asked once, for the warp's first
/// query, which sees the fewest keys; if so, each row's last key is found
/// first, so that a score costs one 32-bit compare (testing both bounds at
/// each score spilled more of flashKernel's registers at head dim 128).
template <bool PosScale, int M>
__device__ __forceinline__ void maskScores(float (*s)[kBN / 8][4], const AttnParams &p, int key0,
                                           int64_t row0, float scaleLog2, int lane) {
  const int g = lane / 4, t = lane % 4;
  const bool edge = key0 + kBN > p.skv || (p.causal && int64_t(key0) + kBN - 1 > row0 + p.offset);
  if (!edge) {
#pragma unroll
    for (int i = 0; i < M; ++i)
#pragma unroll
      for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
          s[i][j][e] = PosScale ? s[i][j][e] : s[i][j][e] * scaleLog2;
    return;
  }
  // Each row's last key, in [-1, skv - 1] (row + offset >= 0): an int.
  int last[M][2];
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t diag = row0 + i * 16 + g + h * 8 + p.offset;
      last[i][h] = p.causal && diag < p.skv - 1 ? int(diag) : p.skv - 1;
    }
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float x = PosScale ? s[i][j][e] : s[i][j][e] * scaleLog2;
        s[i][j][e] = key0 + j * 8 + 2 * t + (e & 1) > last[i][e >> 1] ? -INFINITY : x;
      }
}

/// Turns masked scores into softmax weights in place: raises the running
/// maxima `mx` (log2 units: the raw maximum times the scale), adds the
/// weights to `sum`, and gives each row's factor for the output in `corrs`.
template <bool PosScale, int M>
__device__ __forceinline__ void weighTile(float (*s)[kBN / 8][4], float (*mx)[2], float (*sum)[2],
                                          float (&corrs)[M][2], float scaleLog2) {
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float m = mx[i][r];
#pragma unroll
      for (int j = 0; j < kBN / 8; ++j)
        m = fmaxf(m, fmaxf(s[i][j][2 * r], s[i][j][2 * r + 1]));
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
      if (PosScale)
        m *= scaleLog2;
      // A row that has seen only masked keys keeps -inf; exp2 of -inf is 0.
      const float base = m == -INFINITY ? 0.f : m;
      const float corr = exp2Approx(mx[i][r] - base);
      mx[i][r] = m;
      float rowSum = 0.f;
#pragma unroll
      for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
        for (int e = 2 * r; e < 2 * r + 2; ++e) {
          float pe = PosScale ? exp2Approx(fmaf(s[i][j][e], scaleLog2, -base))
                              : exp2Approx(s[i][j][e] - base);
          s[i][j][e] = pe;
          rowSum += pe;
        }
      sum[i][r] = sum[i][r] * corr + rowSum;
      corrs[i][r] = corr;
    }
}

/// Rescales the output by each row's factor, unless every factor of the
/// warp is 1 (no maximum rose), as it mostly is once a few tiles passed.
template <int HD, int M>
__device__ __forceinline__ void rescaleAcc(float (*acc)[HD / 8][4], const float (&corrs)[M][2]) {
  bool rose = false;
#pragma unroll
  for (int i = 0; i < M; ++i)
    rose = rose || corrs[i][0] != 1.f || corrs[i][1] != 1.f;
  if (__any_sync(0xffffffffu, rose)) {
#pragma unroll
    for (int i = 0; i < M; ++i)
#pragma unroll
      for (int d = 0; d < HD / 8; ++d) {
        acc[i][d][0] *= corrs[i][0];
        acc[i][d][1] *= corrs[i][0];
        acc[i][d][2] *= corrs[i][1];
        acc[i][d][3] *= corrs[i][1];
      }
  }
}

/// The online softmax's step for one tile of scores `s` (Q K^T, before the
/// scale): masks them, turns them into weights, and rescales the output.
template <bool PosScale, int HD, int M>
__device__ __forceinline__ void softmaxTile(float (*s)[kBN / 8][4], float (*acc)[HD / 8][4],
                                            float (*mx)[2], float (*sum)[2], const AttnParams &p,
                                            int key0, int64_t row0, float scaleLog2, int lane) {
  maskScores<PosScale, M>(s, p, key0, row0, scaleLog2, lane);
  float corrs[M][2];
  weighTile<PosScale, M>(s, mx, sum, corrs, scaleLog2);
  rescaleAcc<HD, M>(acc, corrs);
}

/// The epilogue: each row's output divided by its weights' sum (0 for a
/// row that saw no key), rounded to T and stored at `o`'s row; rows past
/// the last query are left alone. `Row`, int or int64_t, is the width of
/// the row arithmetic: int where the caller's rows are ints (flashKernel,
/// wgmmaKernel), which takes fewer registers than 64 bits.
template <class T, int HD, int M, class Row>
__device__ __forceinline__ void storeRows(T *o, const float (*acc)[HD / 8][4],
                                          const float (*sum)[2], const AttnParams &p, Row row0,
                                          int lane) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float l = sum[i][r];
      l += __shfl_xor_sync(0xffffffffu, l, 1);
      l += __shfl_xor_sync(0xffffffffu, l, 2);
      const float inv = l > 0.f ? 1.f / l : 0.f;
      const Row row = row0 + i * 16 + g + r * 8;
      if (row >= p.s)
        continue;
      T *orow = o + int64_t(row) * p.os.s;
#pragma unroll
      for (int d = 0; d < HD / 8; ++d)
        *reinterpret_cast<uint32_t *>(orow + d * 8 + 2 * t) =
            pack2<T>(acc[i][d][2 * r] * inv, acc[i][d][2 * r + 1] * inv);
    }
}

/// The wgmma kernel (AttentionWgmma.cu, sm_90a) for float16/bfloat16 at head
/// dim 128 under flashKernel's layout requirements. Returns
/// kWgmmaUnavailable, with nothing launched and no error left behind, when
/// the device cannot load its sm_90a image; else 0 or 1 as Ctx's calls.
constexpr int kWgmmaUnavailable = -1;
int launchWgmma(Ctx &ctx, const AttnParams &p, int b, bool bf16);

} // namespace graft::cuda::attn

#endif // GRAFT_KERNELS_CUDA_ATTENTION_CUH
