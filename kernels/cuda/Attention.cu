//===- kernels/cuda/Attention.cu - nn.attention: fused flash attention ------===//
//
// Two kernels compute softmax(Q K^T * scale + bias, masked) V over BSNH
// tensors (docs/kernels.md gives the semantics, docs/cuda.md the design):
//
// - flashKernel, for float16/bfloat16 with head dims 64 or 128 (equal for
//   keys and values), no bias, 16-byte aligned rows: one block of four warps
//   per 128 queries of one head, each warp 32 queries. Tiles of 64 keys and
//   values stream through shared memory (cp.async, double-buffered); Q K^T
//   and P V run on the tensor cores (mma.sync m16n8k16, float accumulators)
//   and an online softmax in float rescales the running output as each tile
//   raises a row's maximum (skipped for a warp whose rows' maxima all held:
//   the factor would be exactly 1). Keys past the last one are zero-filled
//   in shared memory but their scores are -inf before the softmax, so they
//   never enter it. Without a causal mask the query blocks of one head are
//   the fastest grid dim, so the blocks running together share their keys
//   and values in L2; with one, the tiles wholly above the diagonal are
//   skipped and the blocks with the most tiles start first. With a positive
//   scale the maximum is taken over the raw scores and each weight is one
//   fused multiply-add and one exp2 (log2 e folded into the scale).
//   GRAFT_CUDA_ATTENTION=v5 picks flashSmemQKernel instead (tests and
//   benchmarks compare them): 16 queries per warp, 64 per block, Q in
//   shared memory, one buffer each for keys and values, 3 blocks per SM;
//   GRAFT_CUDA_ATTENTION=wgmma picks AttentionWgmma.cu's Hopper kernel at
//   head dim 128 (kWgmmaByDefault says whether the default does).
// - rowKernel, for everything else (float32, float64, a bias, other head
//   dims, strided rows): one block per query row, 128 keys at a time with
//   the same online softmax, in float (double for float64).
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Attention.cuh"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace graft::cuda {
namespace {

using namespace attn;

//===----------------------------------------------------------------------===//
// The flash kernel
//===----------------------------------------------------------------------===//

constexpr int kBM = 128, kWarps = 4, kThreads = kWarps * 32;

__device__ __forceinline__ void ldmatrixX4(uint32_t (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smemAddr(p)));
}
__device__ __forceinline__ void ldmatrixX4Trans(uint32_t (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smemAddr(p)));
}

/// D += A B for one 16x8x16 tile, float accumulators.
template <class T>
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                         uint32_t b1) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/// Element (row, col) of a shared tile of HD columns, stored in 16-byte
/// chunks whose index is XORed with the row's low three bits: the eight
/// rows an ldmatrix reads at one column land in eight different banks.
template <int HD> __device__ __forceinline__ int swz(int row, int col) {
  return row * HD + ((((col >> 3) ^ (row & 7))) << 3) + (col & 7);
}

/// Copies `rows` rows of HD elements starting at global row `row0` (of
/// `limit`) into a swizzled tile; rows past `limit` are zero-filled.
template <class T, int HD, int Threads = kThreads>
__device__ __forceinline__ void loadTile(T *dst, const T *src, int64_t rowStride, int row0,
                                         int rows, int limit) {
  constexpr int kChunks = HD / 8;
  for (int i = threadIdx.x; i < rows * kChunks; i += Threads) {
    int r = i / kChunks, c = (i % kChunks) * 8;
    bool ok = row0 + r < limit;
    const T *g = src + (ok ? int64_t(row0 + r) * rowStride : 0) + c;
    cpAsync16(dst + swz<HD>(r, c), g, ok);
  }
}

template <class T, int HD, bool PosScale>
__global__ void __launch_bounds__(kThreads, 2) flashKernel(AttnParams p) {
  awaitUpstream();
  extern __shared__ __align__(128) unsigned char smem[];
  T *sQ = reinterpret_cast<T *>(smem);
  T *sK = sQ + kBM * HD; // two buffers
  T *sV = sK + 2 * kBN * HD;

  // Causal: query blocks are the slowest grid dim, last first, so the
  // blocks with the most key tiles start first and the short ones fill the
  // tail. Else they are the fastest: one head's blocks run side by side and
  // read its keys and values from L2.
  const int mb = p.causal ? gridDim.z - 1 - blockIdx.z : blockIdx.x;
  const int head = p.causal ? blockIdx.x : blockIdx.y;
  const int batch = p.causal ? blockIdx.y : blockIdx.z, kvHead = head / p.group;
  const int m0 = mb * kBM;
  const T *q = static_cast<const T *>(p.q) + batch * p.qs.b + head * p.qs.n;
  const T *k = static_cast<const T *>(p.k) + batch * p.ks.b + kvHead * p.ks.n;
  const T *v = static_cast<const T *>(p.v) + batch * p.vs.b + kvHead * p.vs.n;
  T *o = static_cast<T *>(p.o) + batch * p.os.b + head * p.os.n;

  int tiles = (p.skv + kBN - 1) / kBN;
  if (p.causal) // the block's last query sees keys up to m0 + kBM - 1 + offset
    tiles = min(tiles, int((int64_t(m0) + kBM - 1 + p.offset) / kBN) + 1);

  loadTile<T, HD>(sQ, q, p.qs.s, m0, kBM, p.s);
  cpAsyncCommit();
  if (tiles > 0)
    loadTile<T, HD>(sK, k, p.ks.s, 0, kBN, p.skv);
  cpAsyncCommit();
  if (tiles > 0)
    loadTile<T, HD>(sV, v, p.vs.s, 0, kBN, p.skv);
  cpAsyncCommit();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = warp * 32; // this warp's first query in the block
  constexpr int kDT = HD / 8; // output tiles of 8 columns
  constexpr int kNT = kBN / 8;
  float acc[2][kDT][4];
  float s[2][kNT][4];
  float mx[2][2], sum[2][2]; // rows g, g + 8 of each m-tile
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < kDT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        acc[i][j][e] = 0.f;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      mx[i][r] = -INFINITY;
      sum[i][r] = 0.f;
    }
  }
  const float scaleLog2 = p.scale * 1.4426950408889634f;

  for (int kt = 0; kt < tiles; ++kt) {
    const int buf = kt & 1;
    const T *tK = sK + buf * kBN * HD;
    const T *tV = sV + buf * kBN * HD;
    cpAsyncWait<1>(); // Q and this tile's keys have landed
    __syncthreads();

    // S = Q K^T for 32 queries x 64 keys.
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < kNT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
          s[i][j][e] = 0.f;
#pragma unroll
    for (int ks = 0; ks < HD / 16; ++ks) {
      uint32_t a[2][4];
#pragma unroll
      for (int i = 0; i < 2; ++i)
        ldmatrixX4(a[i], sQ + swz<HD>(wrow + i * 16 + (lane & 15), ks * 16 + (lane >> 4) * 8));
#pragma unroll
      for (int np = 0; np < kNT / 2; ++np) {
        uint32_t b[4];
        ldmatrixX4(b, tK + swz<HD>(np * 16 + (lane & 7) + (lane >> 4) * 8,
                                   ks * 16 + ((lane >> 3) & 1) * 8));
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          mma16816<T>(s[i][2 * np], a[i], b[0], b[1]);
          mma16816<T>(s[i][2 * np + 1], a[i], b[2], b[3]);
        }
      }
    }

    // The next tile's keys load while this one's softmax and P V run.
    if (kt + 1 < tiles)
      loadTile<T, HD>(sK + (buf ^ 1) * kBN * HD, k, p.ks.s, (kt + 1) * kBN, kBN, p.skv);
    cpAsyncCommit();

    softmaxTile<PosScale, HD, 2>(s, acc, mx, sum, p, kt * kBN, int64_t(m0) + wrow, scaleLog2, lane);

    cpAsyncWait<1>(); // this tile's values have landed
    __syncthreads();

    // O += P V: P's accumulator layout is the A operand's, two key tiles at a time.
#pragma unroll
    for (int kk = 0; kk < kBN / 16; ++kk) {
      uint32_t a[2][4];
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        a[i][0] = pack2<T>(s[i][2 * kk][0], s[i][2 * kk][1]);
        a[i][1] = pack2<T>(s[i][2 * kk][2], s[i][2 * kk][3]);
        a[i][2] = pack2<T>(s[i][2 * kk + 1][0], s[i][2 * kk + 1][1]);
        a[i][3] = pack2<T>(s[i][2 * kk + 1][2], s[i][2 * kk + 1][3]);
      }
#pragma unroll
      for (int dp = 0; dp < HD / 16; ++dp) {
        uint32_t b[4];
        ldmatrixX4Trans(b, tV + swz<HD>(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                        dp * 16 + (lane >> 4) * 8));
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          mma16816<T>(acc[i][2 * dp], a[i], b[0], b[1]);
          mma16816<T>(acc[i][2 * dp + 1], a[i], b[2], b[3]);
        }
      }
    }

    if (kt + 1 < tiles)
      loadTile<T, HD>(sV + (buf ^ 1) * kBN * HD, v, p.vs.s, (kt + 1) * kBN, kBN, p.skv);
    cpAsyncCommit();
  }
  cpAsyncWait<0>();
  storeRows<T, HD, 2>(o, acc, sum, p, m0 + wrow, lane);
}

template <class T, int HD, bool PosScale> int launchFlash(Ctx &ctx, const AttnParams &p, int b) {
  constexpr size_t smemBytes = size_t(kBM + 4 * kBN) * HD * sizeof(T);
  static const cudaError_t attrErr = cudaFuncSetAttribute(
      flashKernel<T, HD, PosScale>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  const unsigned mblocks = unsigned((p.s + kBM - 1) / kBM);
  dim3 grid = p.causal ? dim3(p.n, b, mblocks) : dim3(mblocks, p.n, b);
  flashKernel<T, HD, PosScale><<<grid, kThreads, smemBytes, ctx.stream()>>>(p);
  return ctx.checkLaunch("flashKernel");
}

//===----------------------------------------------------------------------===//
// The flash kernel, 16 queries per warp (v5)
//===----------------------------------------------------------------------===//

__device__ __forceinline__ void ldmatrixX4At(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrixX4TransAt(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

/// A lane's ldmatrix addresses in a swizzled tile of HD 16-bit columns, as
/// byte offsets: the row's low three bits are the lane's, so chunk 8a + b
/// (b < 8) lands at chunk 8a + (b ^ row), and the offset of column step i
/// is off[i % 4] + (i / 4) * 128 plus a row offset: four registers per
/// operand instead of one address per fragment.
template <int HD> struct FragOffsets {
  uint32_t off[4];
  /// `row` the lane's row in a 16-row step, `half` which 8-column half of
  /// a 16-column step it addresses.
  __device__ __forceinline__ FragOffsets(int row, int half) {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      off[i] = uint32_t(row * HD + (((2 * i + half) ^ (row & 7)) << 3)) * 2;
  }
  /// Step `step` of 16 columns, `rowStep` of 16 rows.
  __device__ __forceinline__ uint32_t at(uint32_t base, int rowStep, int step) const {
    return base + off[step & 3] + (step >> 2) * 128 + rowStep * 16 * HD * 2;
  }
};

/// O += P V for one warp's 16 queries, the values' tile at shared address
/// `tV`: the weights' accumulator layout is the A operand's, so P never
/// leaves the registers.
template <class T, int HD>
__device__ __forceinline__ void accumulateTile(float (&acc)[HD / 8][4],
                                               const float (&s)[kBN / 8][4], uint32_t tV,
                                               const FragOffsets<HD> &vOff) {
#pragma unroll
  for (int kk = 0; kk < kBN / 16; ++kk) {
    uint32_t a[4];
    a[0] = pack2<T>(s[2 * kk][0], s[2 * kk][1]);
    a[1] = pack2<T>(s[2 * kk][2], s[2 * kk][3]);
    a[2] = pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
    a[3] = pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
    for (int dp = 0; dp < HD / 16; ++dp) {
      uint32_t b[4];
      ldmatrixX4TransAt(b, vOff.at(tV, kk, dp));
      mma16816<T>(acc[2 * dp], a, b[0], b[1]);
      mma16816<T>(acc[2 * dp + 1], a, b[2], b[3]);
    }
  }
}

/// Scores of one warp's 16 queries against a tile of kBN keys, Q's
/// fragments read from its swizzled shared tile at `tQ` at each step.
template <class T, int HD>
__device__ __forceinline__ void scoreTileSmemQ(float (&s)[kBN / 8][4], uint32_t tQ,
                                               const FragOffsets<HD> &qOff, uint32_t tK,
                                               const FragOffsets<HD> &kOff) {
#pragma unroll
  for (int j = 0; j < kBN / 8; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      s[j][e] = 0.f;
#pragma unroll
  for (int ks = 0; ks < HD / 16; ++ks) {
    uint32_t a[4];
    ldmatrixX4At(a, qOff.at(tQ, 0, ks));
#pragma unroll
    for (int np = 0; np < kBN / 16; ++np) {
      uint32_t b[4];
      ldmatrixX4At(b, kOff.at(tK, np, ks));
      mma16816<T>(s[2 * np], a, b[0], b[1]);
      mma16816<T>(s[2 * np + 1], a, b[2], b[3]);
    }
  }
}

/// v5: 16 queries per warp, 64 per block of 4 warps, with Q left in shared
/// memory and one buffer each for keys and values (48 KiB), so the
/// registers (at most 168) and shared memory let 3 blocks share an SM: 12
/// warps against flashKernel's 8. The values of tile j load while its
/// scores and softmax run, the keys of tile j + 1 while its P V runs.
template <class T, int HD, bool PosScale>
__global__ void __launch_bounds__(128, 3) flashSmemQKernel(AttnParams p) {
  awaitUpstream();
  constexpr int BM = 64, kThr = 128, kDT = HD / 8;
  extern __shared__ __align__(128) unsigned char smemQ[];
  T *sQ = reinterpret_cast<T *>(smemQ);
  T *sK = sQ + BM * HD;
  T *sV = sK + kBN * HD;

  const int mb = p.causal ? gridDim.z - 1 - blockIdx.z : blockIdx.x;
  const int head = p.causal ? blockIdx.x : blockIdx.y;
  const int batch = p.causal ? blockIdx.y : blockIdx.z, kvHead = head / p.group;
  const int m0 = mb * BM;
  const T *q = static_cast<const T *>(p.q) + batch * p.qs.b + head * p.qs.n;
  const T *k = static_cast<const T *>(p.k) + batch * p.ks.b + kvHead * p.ks.n;
  const T *v = static_cast<const T *>(p.v) + batch * p.vs.b + kvHead * p.vs.n;
  T *o = static_cast<T *>(p.o) + batch * p.os.b + head * p.os.n;

  int tiles = (p.skv + kBN - 1) / kBN;
  if (p.causal)
    tiles = min(tiles, int((int64_t(m0) + BM - 1 + p.offset) / kBN) + 1);

  loadTile<T, HD, kThr>(sQ, q, p.qs.s, m0, BM, p.s);
  if (tiles > 0)
    loadTile<T, HD, kThr>(sK, k, p.ks.s, 0, kBN, p.skv);
  cpAsyncCommit();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t row0 = int64_t(m0) + warp * 16; // this warp's first query
  const FragOffsets<HD> qOff(lane & 15, lane >> 4);
  const FragOffsets<HD> kOff((lane & 7) + (lane >> 4) * 8, (lane >> 3) & 1);
  const FragOffsets<HD> vOff((lane & 7) + ((lane >> 3) & 1) * 8, lane >> 4);
  const uint32_t aQ = smemAddr(sQ) + uint32_t(warp * 16 * HD * sizeof(T));
  const uint32_t aK = smemAddr(sK), aV = smemAddr(sV);

  float acc[kDT][4];
#pragma unroll
  for (int d = 0; d < kDT; ++d)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      acc[d][e] = 0.f;
  float mx[2] = {-INFINITY, -INFINITY}, sum[2] = {0.f, 0.f};
  const float scaleLog2 = p.scale * 1.4426950408889634f;

  for (int kt = 0; kt < tiles; ++kt) {
    // This tile's keys (and Q) have landed; every warp is done with the
    // previous tile's values.
    cpAsyncWait<0>();
    __syncthreads();
    loadTile<T, HD, kThr>(sV, v, p.vs.s, kt * kBN, kBN, p.skv);
    cpAsyncCommit();
    float s[kBN / 8][4];
    scoreTileSmemQ<T, HD>(s, aQ, qOff, aK, kOff);
    softmaxTile<PosScale, HD, 1>(&s, &acc, &mx, &sum, p, kt * kBN, row0, scaleLog2, lane);
    // The values have landed; every warp is done with this tile's keys.
    cpAsyncWait<0>();
    __syncthreads();
    if (kt + 1 < tiles)
      loadTile<T, HD, kThr>(sK, k, p.ks.s, (kt + 1) * kBN, kBN, p.skv);
    cpAsyncCommit();
    accumulateTile<T, HD>(acc, s, aV, vOff);
  }
  cpAsyncWait<0>();
  storeRows<T, HD, 1>(o, &acc, &sum, p, row0, lane);
}

template <class T, int HD, bool PosScale>
int launchFlashSmemQ(Ctx &ctx, const AttnParams &p, int b) {
  constexpr int BM = 64;
  constexpr size_t smemBytes = size_t(BM + 2 * kBN) * HD * sizeof(T);
  auto *kernel = flashSmemQKernel<T, HD, PosScale>;
  static const cudaError_t attrErr =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  const unsigned mblocks = unsigned((p.s + BM - 1) / BM);
  dim3 grid = p.causal ? dim3(p.n, b, mblocks) : dim3(mblocks, p.n, b);
  kernel<<<grid, 128, smemBytes, ctx.stream()>>>(p);
  return ctx.checkLaunch("flashSmemQKernel");
}

template <class T, int HD, bool PosScale>
int launchFlashVariant(Ctx &ctx, const AttnParams &p, int b, int variant) {
  return variant == 5 ? launchFlashSmemQ<T, HD, PosScale>(ctx, p, b)
                      : launchFlash<T, HD, PosScale>(ctx, p, b);
}

template <class T> int launchFlash(Ctx &ctx, const AttnParams &p, int b, int variant) {
  if (p.scale > 0.f)
    return p.h == 64 ? launchFlashVariant<T, 64, true>(ctx, p, b, variant)
                     : launchFlashVariant<T, 128, true>(ctx, p, b, variant);
  return p.h == 64 ? launchFlashVariant<T, 64, false>(ctx, p, b, variant)
                   : launchFlashVariant<T, 128, false>(ctx, p, b, variant);
}

/// GRAFT_CUDA_ATTENTION picks the flash kernel's form (tests and benchmarks
/// compare them): unset or empty the default (0), "v1" flashKernel, "v5"
/// flashSmemQKernel, "wgmma" wgmmaKernel (flashKernel at head dim 64).
/// v2-v4, v6 and wgmma2 were measured and removed: docs/performance.md. -1
/// for any other value.
int flashVariantFromEnv() {
  const char *v = std::getenv("GRAFT_CUDA_ATTENTION");
  if (!v || !*v)
    return 0;
  if (std::strcmp(v, "v1") == 0)
    return 1;
  if (std::strcmp(v, "v5") == 0)
    return 5;
  if (std::strcmp(v, "wgmma") == 0)
    return 7;
  return -1;
}

/// Queries per block of each variant.
int flashBlockRows(int variant) { return variant == 5 ? 64 : 128; }

/// Whether the default form is wgmmaKernel (where it applies and its image
/// loads) rather than flashKernel. On since the H200 run at 3387186: every
/// flash case passed through it (also under memcheck, racecheck and
/// synccheck), at 417 TFLOP/s against flashKernel's 242 (docs/performance.md).
constexpr bool kWgmmaByDefault = true;

/// The flash kernels for one call: wgmmaKernel first where the variant and
/// head dim allow it (the forced form fails where its image cannot load),
/// else the sm_90 forms.
template <class T> int launchFlashAny(Ctx &ctx, const AttnParams &p, int b, int variant) {
  const bool forced = variant == 7;
  if ((forced || (variant == 0 && kWgmmaByDefault)) && p.h == 128) {
    int rc = launchWgmma(ctx, p, b, std::is_same_v<T, __nv_bfloat16>);
    if (rc != kWgmmaUnavailable)
      return rc;
    if (forced)
      return ctx.fail(std::string("GRAFT_CUDA_ATTENTION=") + std::getenv("GRAFT_CUDA_ATTENTION") +
                      ": this device cannot load the sm_90a kernel");
  }
  return launchFlash<T>(ctx, p, b, variant == 5 ? 5 : 1);
}

//===----------------------------------------------------------------------===//
// The row kernel
//===----------------------------------------------------------------------===//

constexpr int kRowThreads = 128;

template <class A> __device__ A blockAllReduce(A v, bool max, A *red) {
  for (int o = 16; o > 0; o >>= 1) {
    A w = __shfl_xor_sync(0xffffffffu, v, o);
    v = max ? (w > v ? w : v) : v + w;
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads(); // `red` may still be read by the previous reduction
  if (lane == 0)
    red[warp] = v;
  __syncthreads();
  v = red[0];
  for (int w = 1; w < kRowThreads / 32; ++w)
    v = max ? (red[w] > v ? red[w] : v) : v + red[w];
  return v;
}

/// One query row per block: the row of Q and the running output in shared
/// memory, kRowThreads keys scored at a time (one per thread).
template <class T> __global__ void __launch_bounds__(kRowThreads) rowKernel(AttnParams p) {
  awaitUpstream();
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  extern __shared__ __align__(16) unsigned char smem[];
  A *qrow = reinterpret_cast<A *>(smem);
  A *out = qrow + p.h;
  A *prob = out + p.hv;
  __shared__ A red[kRowThreads / 32];

  const int64_t i = blockIdx.x;
  const int head = blockIdx.y, batch = blockIdx.z, kvHead = head / p.group;
  const T *q = static_cast<const T *>(p.q) + batch * p.qs.b + head * p.qs.n + i * p.qs.s;
  const T *k = static_cast<const T *>(p.k) + batch * p.ks.b + kvHead * p.ks.n;
  const T *v = static_cast<const T *>(p.v) + batch * p.vs.b + kvHead * p.vs.n;
  const T *bias = static_cast<const T *>(p.bias);
  if (bias)
    bias += batch * p.bias4[0] + head * p.bias4[1] + i * p.bias4[2];
  for (int d = threadIdx.x; d < p.h; d += kRowThreads)
    qrow[d] = A(loadElem<T>(q + d * p.qs.d));
  for (int d = threadIdx.x; d < p.hv; d += kRowThreads)
    out[d] = A(0);
  __syncthreads();

  const int64_t keys = p.causal ? min(int64_t(p.skv), i + p.offset + 1) : int64_t(p.skv);
  A m = -INFINITY, l = 0;
  for (int64_t j0 = 0; j0 < keys; j0 += kRowThreads) {
    const int64_t j = j0 + threadIdx.x;
    A x = -INFINITY;
    if (j < keys) {
      const T *kr = k + j * p.ks.s;
      A dot = 0;
      for (int d = 0; d < p.h; ++d)
        dot += qrow[d] * A(loadElem<T>(kr + d * p.ks.d));
      x = dot * (std::is_same_v<A, double> ? A(p.scaleD) : A(p.scale));
      if (bias)
        x += A(loadElem<T>(bias + j * p.bias4[3]));
    }
    const A mNew = blockAllReduce<A>(x > m ? x : m, true, red);
    const A corr = m == A(-INFINITY) ? A(0) : exp(m - mNew);
    const A pj = j < keys ? exp(x - mNew) : A(0);
    prob[threadIdx.x] = pj;
    l = l * corr + blockAllReduce<A>(pj, false, red); // also orders prob's writes
    m = mNew;
    const int64_t n = min(int64_t(kRowThreads), keys - j0);
    for (int d = threadIdx.x; d < p.hv; d += kRowThreads) {
      A o = out[d] * corr;
      for (int64_t jj = 0; jj < n; ++jj)
        o += prob[jj] * A(loadElem<T>(v + (j0 + jj) * p.vs.s + d * p.vs.d));
      out[d] = o;
    }
    __syncthreads(); // prob is rewritten by the next chunk
  }
  T *orow = static_cast<T *>(p.o) + batch * p.os.b + head * p.os.n + i * p.os.s;
  for (int d = threadIdx.x; d < p.hv; d += kRowThreads)
    storeElem<T>(orow + d * p.os.d, keys > 0 ? Compute<T>(out[d] / l) : Compute<T>(0));
}

template <class T> int launchRows(Ctx &ctx, const AttnParams &p, int b) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  size_t smemBytes = (size_t(p.h) + p.hv + kRowThreads) * sizeof(A);
  if (smemBytes > 48 * 1024)
    return ctx.fail("head dims " + std::to_string(p.h) + " and " + std::to_string(p.hv) +
                    " are too large for this kernel");
  if (p.s > 2147483647 || p.n > 65535 || b > 65535)
    return ctx.fail("too many queries, heads or batches for one launch");
  dim3 grid(p.s, p.n, b);
  rowKernel<T><<<grid, kRowThreads, smemBytes, ctx.stream()>>>(p);
  return ctx.checkLaunch("rowKernel");
}

//===----------------------------------------------------------------------===//
// Argument checks and dispatch
//===----------------------------------------------------------------------===//

Strides stridesOf(const DLTensor &t) {
  int64_t st[4];
  elementStrides(t, st);
  return {st[0], st[1], st[2], st[3]};
}

/// The flash kernel's requirements: contiguous 16-byte-aligned rows.
bool flashLayout(const DLTensor &t, const Strides &s) {
  auto addr = reinterpret_cast<uintptr_t>(dataOf(t));
  return s.d == 1 && addr % 16 == 0 && s.b % 8 == 0 && s.s % 8 == 0 && s.n % 8 == 0;
}

/// graft.nn.attention (3 or 4 inputs) and graft.nn.attention_bias (4).
template <bool BiasOp> int attention(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, BiasOp ? "graft.nn.attention_bias" : "graft.nn.attention", err);
  if (ctx.checkArity(BiasOp ? 4 : -1, 1))
    return 1;
  if (ctx.numInputs() < 3 || ctx.numInputs() > 4)
    return ctx.fail("expects 3 or 4 inputs (query, key, value, bias), got " +
                    std::to_string(ctx.numInputs()));
  const char *names[] = {"query", "key", "value", "bias"};
  const DLTensor &q = ctx.in(0), &k = ctx.in(1), &v = ctx.in(2), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(q.dtype);
  if (!isFloatType(t))
    return ctx.fail("takes floating-point tensors, got " + dtypeName(q.dtype));
  for (int i = 0; i < ctx.numInputs(); ++i) {
    if (scalarTypeOf(ctx.in(i).dtype) != t)
      return ctx.fail(std::string(names[i]) + " has dtype " + dtypeName(ctx.in(i).dtype) +
                      ", expected " + dtypeName(q.dtype));
    if (ctx.in(i).ndim != 4)
      return ctx.fail(std::string(names[i]) +
                      " must be 4-D (batch, sequence, heads, head dim), got shape " +
                      shapeStr(ctx.in(i)));
  }
  const int64_t b = q.shape[0], s = q.shape[1], n = q.shape[2], h = q.shape[3];
  const int64_t skv = k.shape[1], nkv = k.shape[2], hv = v.shape[3];
  if (k.shape[0] != b || v.shape[0] != b || v.shape[1] != skv || v.shape[2] != nkv ||
      k.shape[3] != h)
    return ctx.fail("query " + shapeStr(q) + ", key " + shapeStr(k) + " and value " + shapeStr(v) +
                    " do not agree: key and value need the query's batch and head dim (key) "
                    "and one sequence length and head count");
  if (nkv == 0 || n % nkv != 0)
    return ctx.fail("the query's " + std::to_string(n) + " heads are not a multiple of the key's " +
                    std::to_string(nkv));
  if (scalarTypeOf(out.dtype) != t)
    return ctx.fail("output 0 has dtype " + dtypeName(out.dtype) + ", expected " +
                    dtypeName(q.dtype));
  if (out.ndim != 4 || out.shape[0] != b || out.shape[1] != s || out.shape[2] != n ||
      out.shape[3] != hv)
    return ctx.fail("output 0 has shape " + shapeStr(out) + ", expected [" + std::to_string(b) +
                    ", " + std::to_string(s) + ", " + std::to_string(n) + ", " +
                    std::to_string(hv) + "]");

  AttnParams p{};
  p.q = dataOf(q);
  p.k = dataOf(k);
  p.v = dataOf(v);
  p.o = dataOf(out);
  p.qs = stridesOf(q);
  p.ks = stridesOf(k);
  p.vs = stridesOf(v);
  p.os = stridesOf(out);
  if (ctx.numInputs() == 4) {
    const DLTensor &bias = ctx.in(3);
    const int64_t want[4] = {b, n, s, skv};
    int64_t st[4];
    elementStrides(bias, st);
    for (int d = 0; d < 4; ++d) {
      if (bias.shape[d] != want[d] && bias.shape[d] != 1)
        return ctx.fail("cannot broadcast bias of shape " + shapeStr(bias) + " to [" +
                        std::to_string(b) + ", " + std::to_string(n) + ", " + std::to_string(s) +
                        ", " + std::to_string(skv) + "]");
      p.bias4[d] = bias.shape[d] == 1 ? 0 : st[d];
    }
    p.bias = dataOf(bias);
  }
  double scale = 1.0 / std::sqrt(double(h));
  if (!ctx.floatAttr(0, "scale", scale, scale))
    return 1;
  if (ctx.hasAttr(1)) {
    const GraftCudaAttr &a = ctx.attr(1);
    if (a.kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'causal_mask' must be a string");
    if (std::strcmp(a.s, "TopLeft") == 0) {
      p.causal = true;
    } else if (std::strcmp(a.s, "BottomRight") == 0) {
      p.causal = true;
      p.offset = s > skv ? s - skv : skv - s;
    } else {
      return ctx.fail(std::string("causal_mask must be \"TopLeft\" or \"BottomRight\", got \"") +
                      a.s + "\"");
    }
  }
  if (ctx.hasAttr(2))
    return ctx.fail("sliding-window attention (window_size) is not supported");
  const int variant = flashVariantFromEnv();
  if (variant < 0)
    return ctx.fail(std::string("GRAFT_CUDA_ATTENTION must be v1, v5 or wgmma, got \"") +
                    std::getenv("GRAFT_CUDA_ATTENTION") + "\"");
  if (b == 0 || s == 0 || n == 0 || hv == 0)
    return 0;
  if (s > 2147483647 || skv > 2147483647 || h > 65536 || hv > 65536)
    return ctx.fail("sequence lengths or head dims too large");
  p.s = int(s);
  p.skv = int(skv);
  p.n = int(n);
  p.group = int(n / nkv);
  p.h = int(h);
  p.hv = int(hv);
  p.scale = float(scale);
  p.scaleD = scale;

  const bool flash = (t == ScalarType::BFloat16 || t == ScalarType::Float16) && h == hv &&
                     (h == 64 || h == 128) && ctx.numInputs() == 3 && flashLayout(q, p.qs) &&
                     flashLayout(k, p.ks) && flashLayout(v, p.vs) && flashLayout(out, p.os) &&
                     b <= 65535 && n <= 65535 &&
                     (s + flashBlockRows(variant) - 1) / flashBlockRows(variant) <= 65535;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsHalf<T>) {
      if (flash)
        return launchFlashAny<T>(ctx, p, int(b), variant);
    }
    if constexpr (kIsFloat<T>)
      return launchRows<T>(ctx, p, int(b));
    return ctx.fail("takes floating-point tensors");
  });
}

const char *const kAttentionAttrs[] = {"scale", "causal_mask", "window_size"};

} // namespace

void addAttentionKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.nn.attention", -1, 1, kAttentionAttrs, 3, attention<false>, nullptr});
  out.push_back({"graft.nn.attention_bias", 4, 1, kAttentionAttrs, 3, attention<true>, nullptr});
}

} // namespace graft::cuda
