//===- kernels/cuda/NN.cu - softmax, log_softmax, layer_norm, rms_norm ------===//
//
// One block per row, the row held in registers: the input is read once and
// the output written once (PyTorch's persistent softmax does the same).
// Statistics accumulate in float (double for float64 data); the CPU
// kernels compute in double, so results differ by a few ulp (tests/cuda
// states the bound). Rows longer than the register tile, and softmax over
// a non-trailing axis or a strided tensor, take a general kernel that reads
// the row from memory on every pass.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Elementwise.cuh"

#include <atomic>
#include <cfloat>
#include <cstdlib>
#include <cstring>

namespace graft::cuda {
namespace {

enum class RowOp { Softmax, LogSoftmax, LayerNorm, RmsNorm };

template <class T> using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class A> __device__ A warpSum(A v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
template <class A> __device__ A warpMax(A v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

/// The sum (or max) over the block; every thread gets the result.
template <bool Max, class A> __device__ A blockReduce(A v, A *shared) {
  v = Max ? warpMax(v) : warpSum(v);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  __syncthreads(); // `shared` may still be read by the previous reduction.
  if (lane == 0)
    shared[warp] = v;
  __syncthreads();
  A r = lane < warps ? shared[lane] : (Max ? A(-INFINITY) : A(0));
  return Max ? warpMax(r) : warpSum(r);
}

struct RowParams {
  int64_t n;
  double eps;
  bool center, scale;
  const char *gamma, *beta; ///< n elements each, of the data's dtype.
};

/// A kept element as the accumulation type (a storage type converts).
template <class A, class K> __device__ inline A asAcc(K v) {
  if constexpr (std::is_same_v<A, K>)
    return v;
  else
    return A(loadElem<K>(&v));
}

/// Element e of a row's vector kept in its storage type, as A, for each
/// pass: a 16-bit element is taken from its 32-bit word by an asm statement
/// the compiler may not merge with another pass's, so it keeps the packed
/// words alive across the reductions, not the float values (twice the
/// registers: a row of 4096 bfloat16 spilled).
template <class A, class K, int V> __device__ inline A kept(const K (&r)[V], int e) {
  if constexpr (std::is_same_v<K, __nv_bfloat16> || std::is_same_v<K, __half>) {
    static_assert(V % 2 == 0, "16-bit elements are kept in pairs");
    uint32_t w;
    memcpy(&w, &r[e & ~1], 4);
    float f;
    if constexpr (std::is_same_v<K, __nv_bfloat16>) {
      uint32_t u;
      if (e & 1)
        asm volatile("and.b32 %0, %1, 0xffff0000;" : "=r"(u) : "r"(w));
      else
        asm volatile("shl.b32 %0, %1, 16;" : "=r"(u) : "r"(w));
      f = __uint_as_float(u);
    } else if (e & 1) {
      asm volatile("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.f32.f16 %0, hi; }"
                   : "=f"(f)
                   : "r"(w));
    } else {
      asm volatile("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.f32.f16 %0, lo; }"
                   : "=f"(f)
                   : "r"(w));
    }
    return A(f);
  } else {
    return asAcc<A>(r[e]);
  }
}

/// The threads that share a row: a whole block, or one warp of it (WarpCs:
/// with the input loaded and the output stored as streamed once,
/// `ld.global.cs`/`st.global.cs`, so gamma and beta stay in L1; forced
/// only, to measure). Persist: a block that stays resident and takes rows
/// in turn (normRowsPersist; PersistCs stores with `st.global.cs`).
enum class RowTeam { Block, Warp, WarpCs, Persist, PersistCs };

/// Threads per block of the warp-per-row form: 4 rows in flight a block.
constexpr int kWarpRowThreads = 128;

/// ITEMS vectors of V elements per thread. Block: one row per block, the
/// elements kept as Acc<T>. Warp: one row per warp (blockDim.x / 32 rows a
/// block), the elements kept in their storage type (a row of 4096
/// bfloat16 is 64 registers a lane) and converted where used; the
/// reductions are warp shuffles only, with no shared memory or barrier.
template <RowOp Op, class T, int ITEMS, int V, RowTeam Team = RowTeam::Block>
__global__ void __launch_bounds__(Team == RowTeam::Block ? 1024 : kWarpRowThreads,
                                  Team == RowTeam::Block ? 1 : 4)
    rowKernel(const T *__restrict__ x, T *__restrict__ y, int64_t rows, RowParams p) {
  awaitUpstream();
  static_assert(Team == RowTeam::Block || Team == RowTeam::Warp || Team == RowTeam::WarpCs);
  using A = Acc<T>;
  constexpr bool kWarp = Team != RowTeam::Block;
  constexpr bool kStream = Team == RowTeam::WarpCs;
  using Keep = std::conditional_t<kWarp, T, A>;
  __shared__ A shared[32];
  const int64_t n = p.n;
  const int64_t row =
      kWarp ? int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32 : int64_t(blockIdx.x);
  const int tid = kWarp ? int(threadIdx.x % 32) : int(threadIdx.x);
  const int team = kWarp ? 32 : int(blockDim.x);
  if (kWarp && row >= rows)
    return; // Nothing below waits on the block.
  auto reduceMax = [&](A v) { return kWarp ? warpMax(v) : blockReduce<true>(v, shared); };
  auto reduceSum = [&](A v) { return kWarp ? warpSum(v) : blockReduce<false>(v, shared); };
  const T *xr = x + row * n;
  T *yr = y + row * n;
  Keep v[ITEMS][V];
  bool valid[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int64_t j = (int64_t(tid) + int64_t(k) * team) * V;
    valid[k] = j < n;
    if (valid[k]) {
      Vec<T, V> in;
      if constexpr (kStream && sizeof(in) == 16) {
        uint4 w = __ldcs(reinterpret_cast<const uint4 *>(xr + j));
        memcpy(&in, &w, 16);
      } else {
        in = *reinterpret_cast<const Vec<T, V> *>(xr + j);
      }
#pragma unroll
      for (int e = 0; e < V; ++e) {
        if constexpr (kWarp)
          v[k][e] = in.v[e];
        else
          v[k][e] = A(loadElem<T>(&in.v[e]));
      }
    }
  }
  A shift = 0, scaleBy = 1; // y = (x - shift) * scaleBy (softmax: then exp)
  if constexpr (Op == RowOp::Softmax || Op == RowOp::LogSoftmax) {
    A m = -INFINITY;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (valid[k])
#pragma unroll
        for (int e = 0; e < V; ++e)
          m = fmax(m, kept<A>(v[k], e));
    m = reduceMax(m);
    A s = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (valid[k])
#pragma unroll
        for (int e = 0; e < V; ++e)
          s += exp(kept<A>(v[k], e) - m);
    s = reduceSum(s);
    shift = m;
    scaleBy = Op == RowOp::Softmax ? A(1) / s : log(s);
  } else {
    A mean = 0;
    if constexpr (Op == RowOp::LayerNorm) {
      A s = 0;
#pragma unroll
      for (int k = 0; k < ITEMS; ++k)
        if (valid[k])
#pragma unroll
          for (int e = 0; e < V; ++e)
            s += kept<A>(v[k], e);
      mean = reduceSum(s) / A(n);
    }
    A sq = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (valid[k])
#pragma unroll
        for (int e = 0; e < V; ++e)
          sq += (kept<A>(v[k], e) - mean) * (kept<A>(v[k], e) - mean);
    sq = reduceSum(sq);
    shift = mean;
    scaleBy = A(1) / sqrt(sq / A(n) + A(p.eps));
  }
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int64_t j = (int64_t(tid) + int64_t(k) * team) * V;
    if (!valid[k])
      continue;
    Vec<T, V> out, g, b;
    if constexpr (Op == RowOp::LayerNorm || Op == RowOp::RmsNorm) {
      // gamma and beta have the data's dtype (checked by the host).
      if (p.scale)
        g = *reinterpret_cast<const Vec<T, V> *>(reinterpret_cast<const T *>(p.gamma) + j);
      if (p.center)
        b = *reinterpret_cast<const Vec<T, V> *>(reinterpret_cast<const T *>(p.beta) + j);
    }
#pragma unroll
    for (int e = 0; e < V; ++e) {
      A z = kept<A>(v[k], e) - shift, r;
      if constexpr (Op == RowOp::Softmax)
        r = exp(z) * scaleBy;
      else if constexpr (Op == RowOp::LogSoftmax)
        r = z - scaleBy;
      else
        r = z * scaleBy * (p.scale ? A(loadElem<T>(&g.v[e])) : A(1)) +
            (p.center ? A(loadElem<T>(&b.v[e])) : A(0));
      out.v[e] = toStorage<T>(r);
    }
    if constexpr (kStream && sizeof(out) == 16) {
      uint4 w;
      memcpy(&w, &out, 16);
      __stcs(reinterpret_cast<uint4 *>(yr + j), w);
    } else {
      *reinterpret_cast<Vec<T, V> *>(yr + j) = out;
    }
  }
}

/// Threads per block of the persistent form at most, and the 16-byte
/// vectors each thread keeps of a row: rows up to 2048 vectors (4096
/// float64, 8192 float32, 16384 of a 16-bit type).
constexpr int kPersistThreads = 512;
constexpr int kPersistItems = 4;

/// 16 bytes of the input, loaded past L1 (`ld.global.nc.L1::no_allocate`):
/// each element is read once, and the kernel writes no address it reads
/// afterwards (a row is read whole before it is written, rows do not
/// overlap), so the non-coherent path is safe even when y aliases x.
/// Volatile with a memory clobber: issued where written, after
/// griddepcontrol.wait and before the reductions that should hide it.
__device__ inline uint4 loadOnce(const void *p) {
  uint4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p)
               : "memory");
  return r;
}

/// layer_norm and rms_norm with rows taken in turn by blocks that stay
/// resident (the grid fills the device once): row r, r + gridDim.x, ...
/// While a block reduces and stores one row, its loads of the next are in
/// flight, so its share of memory traffic does not stop at every row's
/// barriers and tail as a block per row's does. Each thread keeps ITEMS
/// 16-byte vectors of the row packed in the storage type, twice (this row
/// and the next), for 16-byte aligned rows whose length is a multiple of V
/// (the host checks). gamma and beta are read from L1 for each row: kept
/// in registers as well, they spilled at the 64 registers a thread that
/// two blocks of 512 threads an SM leave (float64's statistics spilled
/// even without them, so float64 takes one block of 512 an SM). Every
/// thread of a block runs the same rows, so the barriers of the block
/// reductions are reached by all.
template <RowOp Op, class T, int ITEMS, int V, bool StreamStores>
__global__ void __launch_bounds__(kPersistThreads, sizeof(T) == 8 ? 1 : 2)
    normRowsPersist(const T *__restrict__ x, T *__restrict__ y, int64_t rows, RowParams p) {
  awaitUpstream();
  static_assert(sizeof(T) * V == 16, "rows move in 16-byte vectors");
  static_assert(Op == RowOp::LayerNorm || Op == RowOp::RmsNorm);
  using A = Acc<T>;
  using Pack = T[ITEMS][V];
  __shared__ A shared[32];
  const int64_t n = p.n;
  int col[ITEMS]; // below ITEMS * kPersistThreads * V: an int
  bool valid[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    col[k] = (int(threadIdx.x) + k * int(blockDim.x)) * V;
    valid[k] = col[k] < n;
  }
  int64_t row = blockIdx.x;
  if (row >= rows)
    return; // The whole block: nothing below waits on it.
  auto load = [&](Pack &dst, const T *src) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      uint4 w = valid[k] ? loadOnce(src + col[k]) : make_uint4(0, 0, 0, 0);
      memcpy(&dst[k][0], &w, 16);
    }
  };
  Pack now, ahead;
  load(now, x + row * n);
  // One row: first the next row's loads (into `next`), then this row's
  // statistics and output. The copy after it waits for those loads only
  // once this row's stores are issued (calling it with the buffers swapped
  // in turn instead took 74 to 95 registers, against 64).
  auto step = [&](Pack &cur, Pack &next) {
    int64_t following = row + gridDim.x;
    if (following < rows)
      load(next, x + following * n);
    A mean = 0;
    if constexpr (Op == RowOp::LayerNorm) {
      A s = 0;
#pragma unroll
      for (int k = 0; k < ITEMS; ++k)
        if (valid[k])
#pragma unroll
          for (int e = 0; e < V; ++e)
            s += kept<A>(cur[k], e);
      mean = blockReduce<false>(s, shared) / A(n);
    }
    A sq = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (valid[k])
#pragma unroll
        for (int e = 0; e < V; ++e)
          sq += (kept<A>(cur[k], e) - mean) * (kept<A>(cur[k], e) - mean);
    sq = blockReduce<false>(sq, shared);
    A scaleBy = A(1) / sqrt(sq / A(n) + A(p.eps));
    T *yr = y + row * n;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (!valid[k])
        continue;
      // gamma and beta from L1, where the input's loads leave them.
      Vec<T, V> out, g, b;
      auto affine = [&](Vec<T, V> &dst, const char *base) {
        uint4 w =
            __ldg(reinterpret_cast<const uint4 *>(reinterpret_cast<const T *>(base) + col[k]));
        memcpy(&dst, &w, 16);
      };
      if (p.scale)
        affine(g, p.gamma);
      if (p.center)
        affine(b, p.beta);
#pragma unroll
      for (int e = 0; e < V; ++e)
        out.v[e] = toStorage<T>((kept<A>(cur[k], e) - mean) * scaleBy *
                                    (p.scale ? A(loadElem<T>(&g.v[e])) : A(1)) +
                                (p.center ? A(loadElem<T>(&b.v[e])) : A(0)));
      uint4 w;
      memcpy(&w, &out, 16);
      if constexpr (StreamStores)
        __stcs(reinterpret_cast<uint4 *>(yr + col[k]), w);
      else
        *reinterpret_cast<uint4 *>(yr + col[k]) = w;
    }
    row = following;
  };
  while (true) {
    step(now, ahead);
    if (row >= rows)
      break;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
#pragma unroll
      for (int e = 0; e < V; ++e)
        now[k][e] = ahead[k][e];
  }
}

/// Softmax of rows reached through byte strides: row r starts at the
/// offsets the indexer gives (the axis dim has size 1 there) and steps by
/// the axis strides. Three passes over memory.
template <bool Log, class T>
__global__ void __launch_bounds__(256)
    softmaxGeneral(Indexer<2> rows, const char *x, char *y, int64_t n, int64_t sx, int64_t sy) {
  awaitUpstream();
  using A = Acc<T>;
  __shared__ A shared[32];
  int64_t off[2];
  rows.offsets(blockIdx.x, off);
  const char *xr = x + off[1];
  char *yr = y + off[0];
  auto at = [&](int64_t j) { return A(loadElem<T>(reinterpret_cast<const T *>(xr + j * sx))); };
  A m = -INFINITY;
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
    m = fmax(m, at(j));
  m = blockReduce<true>(m, shared);
  A s = 0;
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
    s += exp(at(j) - m);
  s = blockReduce<false>(s, shared);
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
    A z = at(j) - m;
    storeElem<T>(reinterpret_cast<T *>(yr + j * sy), Log ? z - log(s) : exp(z) / s);
  }
}

bool checkFloat(Ctx &ctx) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (!isFloatType(scalarTypeOf(x.dtype))) {
    ctx.fail("takes a floating-point tensor, got " + dtypeName(x.dtype));
    return false;
  }
  if (scalarTypeOf(out.dtype) != scalarTypeOf(x.dtype) || shapeStr(out) != shapeStr(x) ||
      out.ndim != x.ndim) {
    ctx.fail("output must be " + dtypeName(x.dtype) + shapeStr(x) + ", got " +
             dtypeName(out.dtype) + shapeStr(out));
    return false;
  }
  return true;
}

/// Which team takes a row: a block per row unless GRAFT_CUDA_ROWS=warp (a
/// warp takes rows of up to 16 vectors a lane), warp-cs (the streamed warp
/// form), persist or persist-cs (layer_norm and rms_norm: resident blocks
/// that take rows in turn, the next row's loads in flight). The warp forms
/// measured slower on the H200 for 4096-wide bfloat16 rows (rms_norm 79.8
/// us against 74.6), and so did the persistent ones (84.8 against 73.1),
/// so they stay forced-only.
RowTeam rowTeam() {
  const char *force = std::getenv("GRAFT_CUDA_ROWS");
  if (!force)
    return RowTeam::Block;
  if (std::strcmp(force, "warp") == 0)
    return RowTeam::Warp;
  if (std::strcmp(force, "warp-cs") == 0)
    return RowTeam::WarpCs;
  if (std::strcmp(force, "persist") == 0)
    return RowTeam::Persist;
  if (std::strcmp(force, "persist-cs") == 0)
    return RowTeam::PersistCs;
  return RowTeam::Block;
}

/// The device's SM count (queried once; 132, the H200's, if the query fails).
int smCount() {
  static const int sms = [] {
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0)
      n = 132;
    cudaGetLastError(); // A failed query is not an error of this launch.
    return n;
  }();
  return sms;
}

/// Launches normRowsPersist on a grid that fills the device once (more
/// blocks than can be resident would run their rows after the others had
/// finished theirs), sized so that every block takes the same number of
/// rows but the last few. Occupancy is queried once per kernel and block
/// size.
template <RowOp Op, class T, int V, bool StreamStores>
void launchPersist(Ctx &ctx, const T *x, T *y, int64_t rows, const RowParams &p, int threads) {
  auto kernel = normRowsPersist<Op, T, kPersistItems, V, StreamStores>;
  static std::atomic<int> perSm[kPersistThreads / 32 + 1];
  int slot = threads / 32, resident = perSm[slot].load(std::memory_order_relaxed);
  if (resident <= 0) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, 0) !=
            cudaSuccess ||
        resident <= 0)
      resident = 1;
    cudaGetLastError(); // A failed query is not an error of this launch.
    perSm[slot].store(resident, std::memory_order_relaxed);
  }
  int64_t most = int64_t(smCount()) * resident;
  int64_t each = (rows + most - 1) / most; // rows per block
  auto blocks = unsigned((rows + each - 1) / each);
  kernel<<<blocks, threads, 0, ctx.stream()>>>(x, y, rows, p);
}

/// Launches the register-tile kernel for rows of n elements; false when n
/// is too long for it.
template <RowOp Op, class T>
bool launchRows(Ctx &ctx, const T *x, T *y, int64_t rows, const RowParams &p, int &rc) {
  constexpr int V = vecWidth<T>() > 8 ? 8 : vecWidth<T>();
  int64_t n = p.n;
  bool vec = n % V == 0 && aligned(x, sizeof(T) * V) && aligned(y, sizeof(T) * V) &&
             aligned(p.gamma, sizeof(T) * V) && aligned(p.beta, sizeof(T) * V);
  int64_t units = vec ? n / V : n; // vectors (or elements) per row
  using One = std::integral_constant<int, 1>;
  using Wide = std::integral_constant<int, V>;
  // A warp per row: up to 16 vectors a lane in the storage type (64
  // registers for 16-byte vectors), rows of at least 4 vectors a lane (a
  // shorter row leaves the block form's few threads per row as they are).
  RowTeam team = rowTeam();
  if constexpr (Op == RowOp::LayerNorm || Op == RowOp::RmsNorm) {
    static_assert(sizeof(T) * V == 16);
    bool persist = team == RowTeam::Persist || team == RowTeam::PersistCs;
    if (persist && vec && units <= int64_t(kPersistThreads) * kPersistItems && rows > 0) {
      // Up to kPersistItems vectors a thread, whole warps.
      int threads = int(((units + kPersistItems - 1) / kPersistItems + 31) / 32 * 32);
      if (team == RowTeam::PersistCs)
        launchPersist<Op, T, V, true>(ctx, x, y, rows, p, threads);
      else
        launchPersist<Op, T, V, false>(ctx, x, y, rows, p, threads);
      rc = ctx.checkLaunch("normRowsPersist");
      return true;
    }
  }
  bool warpTeam = team == RowTeam::Warp || team == RowTeam::WarpCs;
  if (vec && units > 3 * 32 && units <= 16 * 32 && rows > 0 && warpTeam) {
    unsigned blocks = unsigned((rows + kWarpRowThreads / 32 - 1) / (kWarpRowThreads / 32));
    auto warp = [&](auto items) {
      constexpr int I = decltype(items)::value;
      rowKernel<Op, T, I, V, RowTeam::Warp>
          <<<blocks, kWarpRowThreads, 0, ctx.stream()>>>(x, y, rows, p);
    };
    if (units <= 4 * 32)
      warp(std::integral_constant<int, 4>{});
    else if (units <= 8 * 32)
      warp(std::integral_constant<int, 8>{});
    else if (team == RowTeam::WarpCs)
      rowKernel<Op, T, 16, V, RowTeam::WarpCs>
          <<<blocks, kWarpRowThreads, 0, ctx.stream()>>>(x, y, rows, p);
    else
      warp(std::integral_constant<int, 16>{});
    rc = ctx.checkLaunch("rowKernel");
    return true;
  }
  // At most 32 elements per thread stay in registers at 1024 threads.
  int64_t maxPer = vec && V > 4 ? 32 / V : 8;
  if (units > 1024 * maxPer)
    return false;
  int threads = 1024;
  int64_t per = (units + threads - 1) / threads;
  if (units < 4096) { // short rows: fewer threads, a few units each
    threads = int(((units + 3) / 4 + 31) / 32 * 32);
    threads = threads < 32 ? 32 : threads;
    per = (units + threads - 1) / threads;
  }
  auto go = [&](auto items, auto width) {
    constexpr int I = decltype(items)::value, W = decltype(width)::value;
    if constexpr (I * W <= 32)
      rowKernel<Op, T, I, W><<<unsigned(rows), threads, 0, ctx.stream()>>>(x, y, rows, p);
  };
  auto pick = [&](auto width) {
    if (per <= 1)
      go(std::integral_constant<int, 1>{}, width);
    else if (per <= 2)
      go(std::integral_constant<int, 2>{}, width);
    else if (per <= 4)
      go(std::integral_constant<int, 4>{}, width);
    else
      go(std::integral_constant<int, 8>{}, width);
  };
  if (vec)
    pick(Wide{});
  else
    pick(One{});
  rc = ctx.checkLaunch("rowKernel");
  return true;
}

template <bool Log> int softmax(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Log ? "graft.nn.log_softmax" : "graft.nn.softmax", err);
  if (ctx.checkArity(1, 1) || !checkFloat(ctx))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t axis;
  if (!ctx.intAttr(0, "axis", -1, axis))
    return 1;
  int nd = x.ndim == 0 ? 1 : x.ndim;
  if (axis < -nd || axis >= nd)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(x.ndim) + " dims");
  axis = axis < 0 ? axis + nd : axis;
  int64_t total = numel(x);
  if (total == 0)
    return 0;
  int64_t n = x.ndim == 0 ? 1 : x.shape[axis];
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      constexpr RowOp Op = Log ? RowOp::LogSoftmax : RowOp::Softmax;
      int rc = 0;
      RowParams p{n, 0.0, false, false, nullptr, nullptr};
      if ((x.ndim == 0 || axis == x.ndim - 1) && isCompact(x) && isCompact(out) &&
          launchRows<Op, T>(ctx, reinterpret_cast<const T *>(dataOf(x)),
                            reinterpret_cast<T *>(dataOf(out)), total / n, p, rc))
        return rc;
      // General: iterate the other dims, step along the axis.
      DLTensor rowsOf = out;
      int64_t shape[kMaxDims];
      for (int d = 0; d < x.ndim; ++d)
        shape[d] = d == axis ? 1 : x.shape[d];
      rowsOf.shape = shape;
      DLTensor inRows = x;
      inRows.shape = shape;
      int64_t xs[kMaxDims], ys[kMaxDims];
      elementStrides(x, xs);
      elementStrides(out, ys);
      inRows.strides = xs;
      rowsOf.strides = ys;
      const DLTensor *ins[] = {&inRows};
      Indexer<2> idx;
      if (!makeIndexer<2>(ctx, rowsOf, ins, idx))
        return 1;
      for (int d = 0; d < idx.ndim; ++d) {
        idx.stride[0][d] *= sizeof(T);
        idx.stride[1][d] *= sizeof(T);
      }
      int64_t sx = x.ndim ? xs[axis] * int64_t(sizeof(T)) : 0;
      int64_t sy = out.ndim ? ys[axis] * int64_t(sizeof(T)) : 0;
      softmaxGeneral<Log, T>
          <<<unsigned(total / n), 256, 0, ctx.stream()>>>(idx, dataOf(x), dataOf(out), n, sx, sy);
      return ctx.checkLaunch("softmaxGeneral");
    }
    return 1;
  });
}

template <bool Rms> int norm(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Rms ? "graft.nn.rms_norm" : "graft.nn.layer_norm", err);
  if (ctx.checkArity(Rms ? 2 : 3, 1) || !checkFloat(ctx))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  std::vector<int64_t> axes;
  bool set = false;
  RowParams p{};
  bool center = !Rms, scale = true;
  if (!ctx.intsAttr(0, "axes", axes, set) || !ctx.floatAttr(1, "epsilon", 1e-5, p.eps) ||
      (!Rms && !ctx.boolAttr(2, "center", true, center)) ||
      (!Rms && !ctx.boolAttr(3, "scale", true, scale)))
    return 1;
  // Only the trailing axes, in order, of compact tensors (docs/cuda.md).
  int k = int(axes.size());
  bool trailing = k > 0 && k <= x.ndim;
  for (int i = 0; trailing && i < k; ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + x.ndim : axes[i];
    trailing = a == x.ndim - k + i;
  }
  if (!trailing || !isCompact(x) || !isCompact(out))
    return ctx.fail("on CUDA, normalizes only the trailing axes, in order, of compact tensors");
  int64_t n = 1;
  for (int i = x.ndim - k; i < x.ndim; ++i)
    n *= x.shape[i];
  const DLTensor *aff[] = {&ctx.in(1), Rms ? nullptr : &ctx.in(2)};
  for (const DLTensor *t : aff) {
    if (!t)
      continue;
    bool same = t->ndim == k && isCompact(*t);
    for (int i = 0; same && i < k; ++i)
      same = t->shape[i] == x.shape[x.ndim - k + i];
    if (!same)
      return ctx.fail(std::string(Rms ? "weight" : "gamma and beta") +
                      " must be compact with the shape of the normalized axes, got " +
                      shapeStr(*t));
    if (scalarTypeOf(t->dtype) != scalarTypeOf(x.dtype))
      return ctx.fail("on CUDA, " + std::string(Rms ? "weight" : "gamma and beta") +
                      " must have the data's dtype " + dtypeName(x.dtype) + ", got " +
                      dtypeName(t->dtype));
  }
  p.n = n;
  p.center = center;
  p.scale = scale;
  p.gamma = dataOf(ctx.in(1));
  p.beta = Rms ? nullptr : dataOf(ctx.in(2));
  int64_t total = numel(x);
  if (total == 0)
    return 0;
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      int rc = 0;
      if (launchRows < Rms ? RowOp::RmsNorm : RowOp::LayerNorm,
          T > (ctx, reinterpret_cast<const T *>(dataOf(x)), reinterpret_cast<T *>(dataOf(out)),
               total / n, p, rc))
        return rc;
      return ctx.fail("a row of " + std::to_string(n) +
                      " elements is longer than the CUDA kernel's register tile");
    }
    return 1;
  });
}

const char *const kSoftmaxAttrs[] = {"axis"};
const char *const kLayerNormAttrs[] = {"axes", "epsilon", "center", "scale"};
const char *const kRmsNormAttrs[] = {"axes", "epsilon"};

} // namespace

void addNNKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.nn.softmax", 1, 1, kSoftmaxAttrs, 1, softmax<false>, nullptr});
  out.push_back({"graft.nn.log_softmax", 1, 1, kSoftmaxAttrs, 1, softmax<true>, nullptr});
  out.push_back({"graft.nn.layer_norm", 3, 1, kLayerNormAttrs, 4, norm<false>, nullptr});
  out.push_back({"graft.nn.rms_norm", 2, 1, kRmsNormAttrs, 2, norm<true>, nullptr});
}

} // namespace graft::cuda
