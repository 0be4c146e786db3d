//===- kernels/cuda/AttentionWgmma.cu - nn.attention on Hopper's wgmma ----===//
//
// The flash kernel for the H100/H200 at float16/bfloat16 and head dim 128
// (docs/cuda.md; GRAFT_CUDA_ATTENTION=wgmma, or the default where
// Attention.cu's kWgmmaByDefault says so): built for sm_90a only (wgmma
// exists nowhere else), so launchWgmma reports kWgmmaUnavailable where that
// image cannot load and Attention.cu takes its sm_90 flashKernel instead.
//
// One block of two warpgroups per 128 queries of one head, 64 per
// warpgroup. Q, and tiles of 64 keys and values (double-buffered, cp.async),
// sit in shared memory in the 128-byte swizzle that wgmma's descriptors
// name: each tile is two halves of 64 columns, each row of a half 128
// bytes, its 16-byte chunk c stored at c ^ (row % 8). S = Q K^T is eight
// m64n64k16 steps with both operands in shared memory (K-major); the
// softmax runs on S's accumulators, whose per-warp layout is mma.sync's
// (Attention.cuh's softmax and epilogue serve every flash kernel); P, rounded to the
// input type, stays in registers as the A operand of four m64n128k16 steps
// against the values (MN-major, transposed by the descriptor). Keys past
// the last one are zero-filled and their scores -inf, as in flashKernel.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Attention.cuh"

namespace graft::cuda::attn {
namespace {

constexpr int kWBM = 128, kWThreads = 256, kHD = 128;
/// Bytes of the Q tile and of one key or value tile; each is two halves.
constexpr uint32_t kQBytes = kWBM * kHD * 2, kTileBytes = kBN * kHD * 2;

/// Byte offset of element (row, col) in a swizzled tile of `Rows` rows.
template <int Rows> __device__ __forceinline__ uint32_t swizzled(int row, int col) {
  return uint32_t((col >> 6) * Rows * 128 + row * 128 + ((((col >> 3) & 7) ^ (row & 7)) << 4) +
                  (col & 7) * 2);
}

/// Copies `Rows` rows of kHD elements from global row `row0` (of `limit`)
/// into the swizzled tile at shared address `dst`; rows past `limit` are
/// zero-filled. Sixteen threads read one row's 256 bytes; a thread's rows
/// are 16 apart, so its chunks share one swizzled column (registers are
/// what the kernel runs short of).
template <class T, int Rows>
__device__ __forceinline__ void loadSwizzled(uint32_t dst, const T *src, int64_t rowStride,
                                             int row0, int limit) {
  const int r = threadIdx.x >> 4, c = (threadIdx.x & 15) * 8;
  dst += swizzled<Rows>(r, c);
  const T *g = src + int64_t(row0 + r) * rowStride + c;
  constexpr int kRowsPerStep = kWThreads / 16;
#pragma unroll
  for (int j = 0; j < Rows / kRowsPerStep; ++j) {
    const bool ok = row0 + r + j * kRowsPerStep < limit;
    asm volatile(
        "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst + j * kRowsPerStep * 128),
        "l"(ok ? g + j * kRowsPerStep * rowStride : src), "r"(ok ? 16 : 0));
  }
}

/// A wgmma shared-memory descriptor in the 128-byte swizzle: `lbo` the
/// leading byte offset (K-major: unused, 16; MN-major: from one half of 64
/// columns to the next), 1024 bytes from one group of 8 rows to the next.
__device__ __forceinline__ uint64_t smemDesc(uint32_t addr, uint32_t lbo) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(lbo >> 4) << 16) |
         (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

/// `x`, as a value the compiler cannot see through: what derives from it
/// (descriptors, the key and value rows) is computed again in each tile
/// instead of held in registers across the loop, which keeps the kernel
/// within its 128 registers without spills (124 under `-Xptxas -v`).
__device__ __forceinline__ uint32_t opaque(uint32_t x) {
  asm volatile("" : "+r"(x));
  return x;
}

__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaWaitAll() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
/// Orders this thread's cp.async writes (generic proxy, complete after its
/// wait) before wgmma's reads of shared memory (async proxy).
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
/// Pins registers wgmma reads or writes: the compiler may not move their
/// other reads and writes across this point (before wgmma's fence, after
/// its wait).
template <int N> __device__ __forceinline__ void fenceRegs(float (&r)[N][4]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      asm volatile("" : "+f"(r[i][e])::"memory");
}
template <int N> __device__ __forceinline__ void fenceRegs(uint32_t (&r)[N][4]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      asm volatile("" : "+r"(r[i][e])::"memory");
}

#define GRAFT_WGMMA_QK(TY, OUT)                                                                    \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\nwgmma.mma_async.sync.aligned.m64n64k16.f32." TY   \
      "." TY " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, "  \
      "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, "          \
      "p, 1, 1, 0, 0;\n}\n"                                                                        \
      : OUT(d[0][0]), OUT(d[0][1]), OUT(d[0][2]), OUT(d[0][3]), OUT(d[1][0]), OUT(d[1][1]),        \
        OUT(d[1][2]), OUT(d[1][3]), OUT(d[2][0]), OUT(d[2][1]), OUT(d[2][2]), OUT(d[2][3]),        \
        OUT(d[3][0]), OUT(d[3][1]), OUT(d[3][2]), OUT(d[3][3]), OUT(d[4][0]), OUT(d[4][1]),        \
        OUT(d[4][2]), OUT(d[4][3]), OUT(d[5][0]), OUT(d[5][1]), OUT(d[5][2]), OUT(d[5][3]),        \
        OUT(d[6][0]), OUT(d[6][1]), OUT(d[6][2]), OUT(d[6][3]), OUT(d[7][0]), OUT(d[7][1]),        \
        OUT(d[7][2]), OUT(d[7][3])                                                                 \
      : "l"(da), "l"(db), "r"(int(Accumulate)))
#define GRAFT_WGMMA_PV(TY)                                                                         \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\nwgmma.mma_async.sync.aligned.m64n128k16.f32." TY  \
      "." TY                                                                                       \
      " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "    \
      "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, " \
      "%37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, " \
      "%55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"  \
      : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]), "+f"(d[1][0]), "+f"(d[1][1]),  \
        "+f"(d[1][2]), "+f"(d[1][3]), "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]),  \
        "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]), "+f"(d[4][0]), "+f"(d[4][1]),  \
        "+f"(d[4][2]), "+f"(d[4][3]), "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]),  \
        "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]), "+f"(d[7][0]), "+f"(d[7][1]),  \
        "+f"(d[7][2]), "+f"(d[7][3]), "+f"(d[8][0]), "+f"(d[8][1]), "+f"(d[8][2]), "+f"(d[8][3]),  \
        "+f"(d[9][0]), "+f"(d[9][1]), "+f"(d[9][2]), "+f"(d[9][3]), "+f"(d[10][0]),                \
        "+f"(d[10][1]), "+f"(d[10][2]), "+f"(d[10][3]), "+f"(d[11][0]), "+f"(d[11][1]),            \
        "+f"(d[11][2]), "+f"(d[11][3]), "+f"(d[12][0]), "+f"(d[12][1]), "+f"(d[12][2]),            \
        "+f"(d[12][3]), "+f"(d[13][0]), "+f"(d[13][1]), "+f"(d[13][2]), "+f"(d[13][3]),            \
        "+f"(d[14][0]), "+f"(d[14][1]), "+f"(d[14][2]), "+f"(d[14][3]), "+f"(d[15][0]),            \
        "+f"(d[15][1]), "+f"(d[15][2]), "+f"(d[15][3])                                             \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1))

/// d += A B, m64n64k16: A (64 queries x 16 dims) and B (64 keys x 16 dims)
/// both K-major in shared memory.
/// Without `Accumulate` d = A B (wgmma's scale-d false), and d's registers
/// are only written: nothing else defines them while an earlier wgmma may
/// still run (ptxas would serialize the wgmmas otherwise).
template <class T, bool Accumulate>
__device__ __forceinline__ void wgmmaQK(float (&d)[kBN / 8][4], uint64_t da, uint64_t db) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    if constexpr (Accumulate)
      GRAFT_WGMMA_QK("bf16", "+f");
    else
      GRAFT_WGMMA_QK("bf16", "=f");
  } else {
    if constexpr (Accumulate)
      GRAFT_WGMMA_QK("f16", "+f");
    else
      GRAFT_WGMMA_QK("f16", "=f");
  }
}

/// d += A B, m64n128k16: A (64 queries x 16 keys) in registers, B (16 keys
/// x 128 dims) MN-major in shared memory.
template <class T>
__device__ __forceinline__ void wgmmaPV(float (&d)[kHD / 8][4], const uint32_t (&a)[4],
                                        uint64_t db) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>)
    GRAFT_WGMMA_PV("bf16");
  else
    GRAFT_WGMMA_PV("f16");
}

#undef GRAFT_WGMMA_QK
#undef GRAFT_WGMMA_PV

template <class T, bool PosScale>
__global__ void __launch_bounds__(kWThreads, 2) wgmmaKernel(AttnParams p) {
  awaitUpstream();
  extern __shared__ __align__(1024) unsigned char smemW[];
  // The swizzle repeats every 1024 bytes from an aligned address.
  const uint32_t sQ = (smemAddr(smemW) + 1023u) & ~1023u;
  const uint32_t sK = sQ + kQBytes, sV = sK + 2 * kTileBytes;

  // The grid's order is flashKernel's (Attention.cu says why).
  const int mb = p.causal ? gridDim.z - 1 - blockIdx.z : blockIdx.x;
  const int head = p.causal ? blockIdx.x : blockIdx.y;
  const int batch = p.causal ? blockIdx.y : blockIdx.z, kvHead = head / p.group;
  const int m0 = mb * kWBM;
  const T *q = static_cast<const T *>(p.q) + batch * p.qs.b + head * p.qs.n;
  // The key and value rows of this head, found again where they load.
  const auto kvRows = [&](const void *base, const Strides &st) {
    return static_cast<const T *>(base) + int64_t(opaque(batch)) * st.b +
           int64_t(opaque(kvHead)) * st.n;
  };

  int tiles = (p.skv + kBN - 1) / kBN;
  if (p.causal) // the block's last query sees keys up to m0 + kWBM - 1 + offset
    tiles = min(tiles, int((int64_t(m0) + kWBM - 1 + p.offset) / kBN) + 1);

  loadSwizzled<T, kWBM>(sQ, q, p.qs.s, m0, p.s);
  if (tiles > 0)
    loadSwizzled<T, kBN>(sK, kvRows(p.k, p.ks), p.ks.s, 0, p.skv);
  cpAsyncCommit();
  if (tiles > 0)
    loadSwizzled<T, kBN>(sV, kvRows(p.v, p.vs), p.vs.s, 0, p.skv);
  cpAsyncCommit();

  const int wg = threadIdx.x / 128, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const int row0 = m0 + wg * 64 + warp * 16; // this warp's first query
  const uint32_t qRows = sQ + wg * 64 * 128; // the warpgroup's rows of each half

  float acc[kHD / 8][4];
#pragma unroll
  for (int d = 0; d < kHD / 8; ++d)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      acc[d][e] = 0.f;
  float mx[2] = {-INFINITY, -INFINITY}, sum[2] = {0.f, 0.f};
  const float scaleLog2 = p.scale * 1.4426950408889634f;

  for (int kt = 0; kt < tiles; ++kt) {
    const uint32_t tK = sK + (kt & 1) * kTileBytes, tV = sV + (kt & 1) * kTileBytes;
    // This tile's keys (and Q) have landed; every warpgroup is done with
    // the other key buffer (its last S waited for its wgmma).
    cpAsyncWait<1>();
    fenceProxyAsync();
    __syncthreads();
    if (kt + 1 < tiles)
      loadSwizzled<T, kBN>(sK + ((kt + 1) & 1) * kTileBytes, kvRows(p.k, p.ks), p.ks.s,
                           (kt + 1) * kBN, p.skv);
    cpAsyncCommit();

    float s[kBN / 8][4]; // the first step writes it (scale-d false)
    wgmmaFence();
    const uint64_t descQ = smemDesc(opaque(qRows), 16), descK = smemDesc(opaque(tK), 16);
#pragma unroll
    for (int ks = 0; ks < kHD / 16; ++ks) {
      // Step ks: half ks / 4, 32 bytes per 16 columns inside the swizzled
      // row (the start address is the descriptor's low bits, in 16 bytes).
      const uint32_t col = (ks >> 2) * (kWBM * 128) + (ks & 3) * 32;
      const uint32_t colK = (ks >> 2) * (kBN * 128) + (ks & 3) * 32;
      if (ks == 0)
        wgmmaQK<T, false>(s, descQ + (col >> 4), descK + (colK >> 4));
      else
        wgmmaQK<T, true>(s, descQ + (col >> 4), descK + (colK >> 4));
    }
    wgmmaCommit();
    wgmmaWaitAll();
    fenceRegs(s);

    // The warp's first row, like the descriptors, is found again here.
    softmaxTile<PosScale, kHD, 1>(&s, &acc, &mx, &sum, p, kt * kBN, int(opaque(row0)), scaleLog2,
                                  lane);

    uint32_t a[kBN / 16][4];
#pragma unroll
    for (int kk = 0; kk < kBN / 16; ++kk) {
      a[kk][0] = pack2<T>(s[2 * kk][0], s[2 * kk][1]);
      a[kk][1] = pack2<T>(s[2 * kk][2], s[2 * kk][3]);
      a[kk][2] = pack2<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
      a[kk][3] = pack2<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }

    // This tile's values have landed; every warpgroup is done with the
    // other value buffer.
    cpAsyncWait<1>();
    fenceProxyAsync();
    __syncthreads();
    if (kt + 1 < tiles)
      loadSwizzled<T, kBN>(sV + ((kt + 1) & 1) * kTileBytes, kvRows(p.v, p.vs), p.vs.s,
                           (kt + 1) * kBN, p.skv);
    cpAsyncCommit();

    fenceRegs(acc);
    fenceRegs(a);
    wgmmaFence();
    const uint64_t descV = smemDesc(opaque(tV), kBN * 128);
#pragma unroll
    for (int kk = 0; kk < kBN / 16; ++kk)
      wgmmaPV<T>(acc, a[kk], descV + (kk * 16 * 128 >> 4));
    wgmmaCommit();
    wgmmaWaitAll();
    fenceRegs(acc);
  }
  cpAsyncWait<0>();

  T *o = static_cast<T *>(p.o) + batch * p.os.b + head * p.os.n;
  storeRows<T, kHD, 1>(o, &acc, &sum, p, row0, lane);
}

template <class T, bool PosScale> int launch(Ctx &ctx, const AttnParams &p, int b) {
  constexpr size_t smemBytes = kQBytes + 4 * kTileBytes + 1024; // + the alignment
  auto *kernel = wgmmaKernel<T, PosScale>;
  static const cudaError_t attrErr =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (attrErr != cudaSuccess) {
    // No sm_90a image for this device (or none that loads): flashKernel's turn.
    cudaGetLastError();
    return kWgmmaUnavailable;
  }
  const unsigned mblocks = unsigned((p.s + kWBM - 1) / kWBM);
  dim3 grid = p.causal ? dim3(p.n, b, mblocks) : dim3(mblocks, p.n, b);
  kernel<<<grid, kWThreads, smemBytes, ctx.stream()>>>(p);
  return ctx.checkLaunch("wgmmaKernel");
}

} // namespace

int launchWgmma(Ctx &ctx, const AttnParams &p, int b, bool bf16) {
  if (bf16)
    return p.scale > 0.f ? launch<__nv_bfloat16, true>(ctx, p, b)
                         : launch<__nv_bfloat16, false>(ctx, p, b);
  return p.scale > 0.f ? launch<__half, true>(ctx, p, b) : launch<__half, false>(ctx, p, b);
}

} // namespace graft::cuda::attn
