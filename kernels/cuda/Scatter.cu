//===- kernels/cuda/Scatter.cu - scatter_elements, deterministic ----------===//
//
// scatter_elements(data, indices, updates; axis, reduction, include_self)
// with the CPU kernel's semantics (kernels/cpu/Scatter.cpp), and its
// results bit for bit, in every run:
//
//   1. every update gets the row-major element of the output it lands on
//      as its key, and its own element offset in `updates` as its value;
//   2. cub's radix sort orders the (key, value) pairs by key; it is stable,
//      so the updates of one element stay in index (row-major) order;
//   3. each output element finds its run of updates by binary search and
//      folds them in that order exactly as the CPU does: the same
//      accumulator type (float for float16/bfloat16 sums), the same
//      rounding steps (a product and a mean's count rounded to the dtype at
//      every step), NaN kept by max and min, the last write winning for a
//      plain update. Short runs take a thread each; long runs (many updates
//      into few elements) a warp each, whose lanes load 32 updates at a
//      time and fold them in lane order through shuffles.
//
// Three plans for the sort (GRAFT_CUDA_SCATTER forces one): all updates
// by element (cub::DeviceRadixSort); each line, the updates that differ
// only along the axis, by the axis position named (segmented radix sort,
// fewer key bits); or tiles of whole lines sorted inside one block in
// shared memory (cub::BlockRadixSort), when a line fits a block: there the
// updates' values ride through the sort beside their keys, the sort takes
// only the bits of (line in tile, axis position named), its stability
// keeping index order, and the thread holding a run's first update folds
// the run from shared memory.
//
// Plans without a sort come first where they apply (docs/cuda.md): the
// ranked walk (a warp per line, lanes naming the same position ranked by
// __match_any_sync and folded in rank order) and the owner fold (chunk
// partials, where chunks keep the bits); the column walks are forced only.
//
// No atomics on values, so no order that depends on scheduling. Keys and
// values are 32-bit when the tensors allow it (fewer sort passes). The
// kernel that reads the indices also notes the first out-of-range one (its
// updates are never folded) in a record that the module reads back at its
// next synchronization point (DeferredCheck.cu), which then fails with the
// CPU's message: the call itself never waits for the device. Unlike the
// CPU kernel, the output then holds the data with the valid updates
// applied. While the stream is captured into a CUDA graph there is no
// record, and bad updates are skipped. The ranked walk and the owner fold
// write every element of their lines, so where the lines cover the output
// they copy the data's untouched elements themselves (no copy first).
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/ElementwiseOps.cuh"

#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace graft::cuda {
namespace {

constexpr int kScatterThreads = 256;

enum class Red { Update, Add, Mul, Mean, Max, Min };

bool parseReduction(const std::string &s, Red &op) {
  if (s == "update" || s == "none")
    op = Red::Update;
  else if (s == "add" || s == "sum")
    op = Red::Add;
  else if (s == "mul" || s == "prod")
    op = Red::Mul;
  else if (s == "mean")
    op = Red::Mean;
  else if (s == "max" || s == "amax")
    op = Red::Max;
  else if (s == "min" || s == "amin")
    op = Red::Min;
  else
    return false;
  return true;
}

/// Where each update lands: coordinates over the indices' shape, the
/// indices' byte strides, the updates' and the output's element strides.
struct ScatterGeom {
  int ndim = 0, axis = 0;
  int64_t len = 0;
  int64_t shape[kMaxDims] = {}, idxStride[kMaxDims] = {}, updStride[kMaxDims] = {},
          outStride[kMaxDims] = {};
  const char *idx = nullptr;
  ScalarType idxType = ScalarType::Int64;
};

/// Ends a kernel that notes bad indices; every thread of every block calls
/// it last. The last block to finish stores the index at the least bad
/// position into the record: the indices are still those of this call
/// (DeferredCheck.cu reads the record after they may be gone). The fences
/// order each block's notes before its count, and the count before the
/// last block's read (the threadfence-reduction pattern).
__device__ inline void finishBadIndexCheck(BadIndexRecord *r, const ScatterGeom &g) {
  if (!r)
    return;
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  __threadfence();
  const unsigned long long blocks = (unsigned long long)gridDim.x * gridDim.y;
  if (atomicAdd(&r->blocks, 1ull) != blocks - 1)
    return;
  __threadfence();
  const unsigned long long key = atomicMax(&r->key, 0ull); // An atomic read.
  if (!key)
    return;
  int64_t pos = int64_t(~key), off = 0;
  for (int d = g.ndim - 1; d >= 0; --d) {
    off += (pos % g.shape[d]) * g.idxStride[d];
    pos /= g.shape[d];
  }
  r->value = loadAs<int64_t>(g.idx + off, g.idxType);
}

template <class K>
__global__ void keysKernel(ScatterGeom g, int64_t n, K sentinel, K *keys, K *vals,
                           BadIndexRecord *bad) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t u = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < n; u += stride) {
    int64_t rem = u, target = 0, ioff = 0, uoff = 0;
    for (int d = g.ndim - 1; d >= 0; --d) {
      int64_t c = rem % g.shape[d];
      rem /= g.shape[d];
      ioff += c * g.idxStride[d];
      uoff += c * g.updStride[d];
      if (d != g.axis)
        target += c * g.outStride[d];
    }
    int64_t k = loadAs<int64_t>(g.idx + ioff, g.idxType);
    if (k < -g.len || k >= g.len) { // Never folded; reported at the next sync.
      noteBadIndex(bad, (unsigned long long)u);
      keys[u] = sentinel;
      vals[u] = 0;
      continue;
    }
    if (k < 0)
      k += g.len;
    keys[u] = K(target + k * g.outStride[g.axis]);
    vals[u] = K(uoff);
  }
  finishBadIndexCheck(bad, g);
}

template <class T> __device__ inline Compute<T> roundC(Compute<T> v) {
  if constexpr (kIsHalf<T>) {
    T s = toStorage<T>(v);
    return loadElem<T>(&s);
  } else {
    return v;
  }
}

template <bool Max, class C> __device__ inline bool beats(C x, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (best != best)
      return false;
    if (x != x)
      return true;
  }
  return Max ? best < x : x < best;
}

/// One step of a fold: the running value and the next update (or the next
/// chunk's partial, which folds the same way for every reduction whose
/// step is associative on the stored bits).
template <class T> __device__ inline Compute<T> step(Red op, Compute<T> acc, Compute<T> v) {
  switch (op) {
  case Red::Update:
    return v;
  case Red::Add:
  case Red::Mean:
    return ops::addC(acc, v);
  case Red::Mul:
    return roundC<T>(ops::mulC(acc, v));
  case Red::Max:
    return beats<true>(v, acc) ? v : acc;
  case Red::Min:
    return beats<false>(v, acc) ? v : acc;
  }
  return v;
}

/// One output element's fold, step for step the CPU kernel's.
template <class T> struct Fold {
  using C = Compute<T>;
  Red op;
  C acc, count;
  bool started;

  __device__ Fold(Red op, bool includeSelf, C self) : op(op), acc(self), count(C(0)) {
    started = includeSelf && op != Red::Update;
    if (started)
      count = C(1);
  }
  __device__ void add(C v) { merge(v, C(1)); }
  /// Folds in a run of `n` updates already folded to `v` (one update: n = 1).
  __device__ void merge(C v, C n) {
    acc = started ? step<T>(op, acc, v) : v;
    started = true;
    count = roundC<T>(ops::addC(count, n));
  }
  __device__ C result() const {
    if (op != Red::Mean)
      return acc;
    C sum = roundC<T>(acc), n = count == C(0) ? C(1) : count;
    if constexpr (std::is_same_v<C, bool>)
      return sum; // Refused before: mean does not take bool.
    else if constexpr (std::is_floating_point_v<C>)
      return sum / n;
    else
      return ops::intFloorDiv(sum, n);
  }
};

/// The first position of keys[0, n) not below v.
template <class K> __device__ inline int64_t lowerBound(const K *keys, int64_t n, K v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

template <class T, class K>
__global__ void foldThreadKernel(const K *keys, const K *vals, int64_t n, int64_t targets, Red op,
                                 bool includeSelf, const T *upd, T *out) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < targets; t += stride) {
    int64_t j = lowerBound(keys, n, K(t));
    if (j == n || keys[j] != K(t))
      continue;
    Fold<T> f(op, includeSelf, loadElem<T>(out + t));
    for (; j < n && keys[j] == K(t); ++j)
      f.add(loadElem<T>(upd + vals[j]));
    storeElem<T>(out + t, f.result());
  }
}

template <class C> __device__ inline C shuffle(C v, int lane) {
  if constexpr (sizeof(C) < 4)
    return C(__shfl_sync(0xffffffffu, int(v), lane));
  else if constexpr (std::is_same_v<C, int64_t>)
    return int64_t(__shfl_sync(0xffffffffu, (long long)v, lane));
  else
    return __shfl_sync(0xffffffffu, v, lane);
}

/// A warp per output element: lanes load 32 updates of the run at once and
/// every lane folds them in lane order (the same result in every lane).
template <class T, class K>
__global__ void foldWarpKernel(const K *keys, const K *vals, int64_t n, int64_t targets, Red op,
                               bool includeSelf, const T *upd, T *out) {
  awaitUpstream();
  int lane = int(threadIdx.x & 31);
  int64_t warps = (int64_t(gridDim.x) * blockDim.x) / 32;
  for (int64_t t = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; t < targets; t += warps) {
    int64_t lo = lowerBound(keys, n, K(t)), hi = lowerBound(keys, n, K(t + 1));
    if (lo == hi)
      continue;
    Fold<T> f(op, includeSelf, loadElem<T>(out + t));
    for (int64_t base = lo; base < hi; base += 32) {
      Compute<T> v = base + lane < hi ? loadElem<T>(upd + vals[base + lane]) : Compute<T>(0);
      int m = int(hi - base < 32 ? hi - base : 32);
      for (int l = 0; l < m; ++l)
        f.add(shuffle(v, l));
    }
    if (lane == 0)
      storeElem<T>(out + t, f.result());
  }
}

struct Plan {
  Red op = Red::Update;
  bool includeSelf = true, wide = false;
  int endBit = 1;
  int64_t updates = 0, targets = 0;
  ScatterGeom g;
  /// Sort each line (the updates that differ only along the axis) by its
  /// position along the axis, instead of all updates by element.
  bool byLines = false;
  int64_t lines = 0, lineLen = 0;
  /// Sort tiles of whole lines inside one block (no global sort).
  bool tiled = false;
  int kBits = 0, tileBits = 0;
  int64_t rmAxis = 1; ///< Row-major stride of the axis in the indices.
  /// The owner fold (no sort): a warp per tile of 32 lines and chunk of
  /// `chunkRows` axis positions, chunk partials combined in chunk order.
  bool owner = false;
  int64_t chunkRows = 0, chunks = 1, tiles = 0;
  size_t accBytes = 0, ownerSmem = 0; ///< A partial's accumulator; a block's smem.
  /// The column walk (no sort, no chunks): blocks of 1 << columnBits lines.
  bool column = false;
  int columnBits = 0;
  /// With a thread per line and its accumulators in shared memory.
  bool columnSmem = false;
  size_t columnSmemBytes = 0;
  /// The indices' lines cover the output: their shape is the data's outside
  /// the axis, so the walks that write every element of their lines can
  /// copy the data's untouched elements themselves.
  bool coversOutput = false;
  /// The ranked walk (no sort, no chunks): a warp per line, 8 lines a block.
  bool match = false;
  size_t matchSmemBytes = 0;
  /// GRAFT_CUDA_SCATTER_WALK: "rounds" (round 11's walk) or "atomic" (the
  /// groups found by shared-memory atomics instead of __match_any_sync).
  bool matchRounds = false, matchAtomic = false;
  int matchRows = 256; ///< Axis positions a stretch stages (planMatch).
  /// The lane walk's lanes a line (GRAFT_CUDA_SCATTER_LANES): 32 (a warp a
  /// line) or the power of two from 4 that holds the axis (packed).
  int matchLaneP = 32;
  /// Warps a line (GRAFT_CUDA_SCATTER_SPLIT): 1, or 2 (4 lines a block,
  /// warp j of a line owning the positions k with k % 2 = j).
  int matchSplit = 1;
};

struct Layout {
  size_t keysIn = 0, keysOut = 0, valsIn = 0, valsOut = 0, offsets = 0, temp = 0, tempBytes = 0,
         total = 0;
  size_t partAcc = 0, partCount = 0, partFlag = 0; ///< The owner fold's chunk partials.
};

constexpr int kTileThreads = 1024, kTileItems = 8, kTileCap = kTileThreads * kTileItems;

int bitsFor(uint64_t v) { // Bits to hold every value in [0, v].
  int b = 0;
  while (b < 64 && (uint64_t(1) << b) <= v)
    ++b;
  return b;
}

/// The tile plan applies when a line fits a block and a tile's keys (line
/// in tile, axis position named) fit 31 bits.
void planTile(Plan &p) {
  p.tiled = false;
  if (p.lines == 0 || p.lineLen > kTileCap)
    return;
  p.kBits = bitsFor(uint64_t(p.g.len));
  if (p.kBits > 31)
    return;
  p.tileBits = 0;
  while (p.kBits + p.tileBits < 31 && (p.lineLen << (p.tileBits + 1)) <= kTileCap &&
         (int64_t(1) << p.tileBits) < p.lines)
    ++p.tileBits;
  if (((p.lines - 1) >> p.tileBits) >= int64_t(INT32_MAX)) // One block per tile.
    return;
  p.rmAxis = 1;
  for (int d = p.g.ndim - 1; d > p.g.axis; --d)
    p.rmAxis *= p.g.shape[d];
  p.tiled = true;
}

constexpr int kOwnerLines = 32; ///< Lines per tile: a warp, a thread per line.

/// The device's limits the owner fold sizes itself by (queried once).
struct DeviceLimits {
  int sms = 0, smemPerBlock = 0, smemPerSM = 0;
};

const DeviceLimits &deviceLimits() {
  static const DeviceLimits limits = [] {
    DeviceLimits l;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&l.sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&l.smemPerBlock, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&l.smemPerSM, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) !=
            cudaSuccess)
      l = DeviceLimits{};
    cudaGetLastError(); // A failed query leaves the owner fold off, not an error behind.
    return l;
  }();
  return limits;
}

/// Lets `kernel` take the device's opt-in shared memory less its static
/// shared memory (the two together may not pass the limit). A failure is
/// consumed here, so that no later launch check blames another kernel.
template <class Kernel> cudaError_t allowDynamicSmem(Kernel *kernel) {
  cudaFuncAttributes attrs{};
  cudaError_t e = cudaFuncGetAttributes(&attrs, kernel);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             deviceLimits().smemPerBlock - int(attrs.sharedSizeBytes));
  if (e != cudaSuccess)
    cudaGetLastError();
  return e;
}

int64_t envInt(const char *name) {
  const char *v = std::getenv(name);
  return v ? std::atoll(v) : 0;
}

/// Whether folding chunk partials in chunk order gives the bits of one fold
/// in index order: the last write, max and min (NaN included: the first
/// NaN wins either way, equal values keep the earliest), and every
/// reduction on integers and bool (wrapping arithmetic is associative).
/// Not float sums, products and means, whose rounding depends on the order.
bool chunksExact(Red op, ScalarType t) {
  return op == Red::Update || op == Red::Max || op == Red::Min || !isFloatType(t);
}

/// The owner fold applies when a tile's accumulators (an accumulator, a
/// mean's count and a flag per (axis position, line)) fit a block's shared
/// memory and the indices are int32 or int64. It is taken by default when
/// its chunks are exact and the partials stay within twice the updates;
/// `force` ("owner") takes it wherever it applies, `reorder`
/// ("owner-reorder") also splits float sums, products and means into
/// chunks (deterministic, but not the CPU's rounding order).
void planOwner(Plan &p, ScalarType t, bool force, bool reorder) {
  p.owner = false;
  const DeviceLimits &dev = deviceLimits();
  if (p.lines == 0 || p.lineLen == 0 || p.g.len == 0 || dev.sms == 0 ||
      (p.g.idxType != ScalarType::Int32 && p.g.idxType != ScalarType::Int64))
    return;
  p.accBytes = dispatch(t, [](auto tag) { return sizeof(Compute<decltype(tag)>); });
  size_t perElem = p.accBytes * (p.op == Red::Mean ? 2 : 1) + 1;
  p.ownerSmem = size_t(p.g.len) * kOwnerLines * perElem;
  if (p.ownerSmem > size_t(dev.smemPerBlock) || p.g.len > int64_t(INT32_MAX) / kOwnerLines)
    return;
  bool exact = chunksExact(p.op, t);
  if (!force && !(exact && p.g.len <= 2 * p.lineLen))
    return;
  p.tiles = (p.lines + kOwnerLines - 1) / kOwnerLines;
  if (p.tiles > int64_t(INT32_MAX))
    return;
  // Enough warps to fill the GPU (as many blocks as shared memory lets
  // reside), at most 32 chunks (the combine reads each), at most twice the
  // updates' count in partials, and at least 16 axis positions a chunk.
  int64_t resident = std::min<int64_t>(32, dev.smemPerSM / int64_t(p.ownerSmem + 1024));
  int64_t chunks = std::max<int64_t>(1, resident) * dev.sms / p.tiles;
  chunks = std::min<int64_t>({chunks, 32, (2 * p.lineLen) / p.g.len, (p.lineLen + 15) / 16});
  if (!exact && !reorder)
    chunks = 1;
  if (int64_t rows = envInt("GRAFT_CUDA_SCATTER_ROWS"); rows > 0 && (exact || reorder))
    chunks = (p.lineLen + rows - 1) / rows;
  chunks = std::max<int64_t>(1, std::min<int64_t>(chunks, 65535));
  p.chunkRows = (p.lineLen + chunks - 1) / chunks;
  p.chunks = (p.lineLen + p.chunkRows - 1) / p.chunkRows;
  p.rmAxis = 1;
  for (int d = p.g.ndim - 1; d > p.g.axis; --d)
    p.rmAxis *= p.g.shape[d];
  p.owner = true;
}

/// The column walk's blocks, and the updates a block stages at a time
/// (kColumnItems a thread).
constexpr int kColumnThreads = 128, kColumnItems = 16, kColumnStage = kColumnThreads * kColumnItems;
constexpr int kColumnMaxLen = kColumnThreads; ///< A fold thread per (line, axis position).
/// The staged stretch's bytes: its indices (int32) and the updates' bits,
/// then the accumulators 16-byte aligned.
__host__ __device__ constexpr size_t columnStageBytes(size_t elemBytes) {
  return size_t(kColumnStage) * 4 + (size_t(kColumnStage) * elemBytes + 15) / 16 * 16;
}

/// The dynamic shared memory columnSmemKernel may ask for: the device's
/// opt-in limit less its static line table (the two together may not pass
/// the limit, or setting the attribute fails).
size_t columnSmemLimit() {
  constexpr size_t table = size_t(kColumnThreads) * 4 * sizeof(int64_t);
  size_t limit = size_t(deviceLimits().smemPerBlock);
  return limit > table ? limit - table : 0;
}

/// The column walk applies when a block's threads cover at least one line's
/// axis positions (a fold thread each) and the indices are int32 or int64.
/// Blocks take as many lines as fit, down to one, while there are fewer
/// than two blocks per SM.
///
/// With `smem` (GRAFT_CUDA_SCATTER=column-smem), a thread per line folds
/// into accumulators in shared memory instead, for any axis whose
/// accumulators fit: blocks of up to 32 lines, as many as fill every SM
/// once.
void planColumn(Plan &p, ScalarType t, bool smem) {
  p.column = false;
  p.columnSmem = smem;
  if (p.lines == 0 || p.lineLen == 0 || p.g.len == 0 || (!smem && p.g.len > kColumnMaxLen) ||
      p.g.len > int64_t(INT32_MAX) / 32 ||
      (p.g.idxType != ScalarType::Int32 && p.g.idxType != ScalarType::Int64))
    return;
  int sms = std::max(1, deviceLimits().sms);
  p.columnBits = 0;
  if (smem) {
    size_t elemBytes = dispatch(t, [](auto tag) { return sizeof(decltype(tag)); });
    size_t accBytes = dispatch(t, [](auto tag) { return sizeof(Compute<decltype(tag)>); });
    size_t perElem = accBytes * (p.op == Red::Mean ? 2 : 1) + 1;
    auto bytes = [&](int bits) {
      return columnStageBytes(elemBytes) + size_t(p.g.len << bits) * perElem;
    };
    while (p.columnBits < 5 && (p.lines >> (p.columnBits + 1)) >= int64_t(sms) &&
           bytes(p.columnBits + 1) <= columnSmemLimit())
      ++p.columnBits;
    p.columnSmemBytes = bytes(p.columnBits);
    if (p.columnSmemBytes > columnSmemLimit())
      return;
  }
  while (!smem && (p.g.len << (p.columnBits + 1)) <= kColumnThreads &&
         (p.lines >> (p.columnBits + 1)) >= 2 * int64_t(sms))
    ++p.columnBits;
  if (((p.lines - 1) >> p.columnBits) >= int64_t(INT32_MAX)) // One block per group of lines.
    return;
  p.rmAxis = 1;
  for (int d = p.g.ndim - 1; d > p.g.axis; --d)
    p.rmAxis *= p.g.shape[d];
  p.column = true;
}

/// The ranked walk's blocks: a warp per line, kMatchLines lines; a staged
/// stretch holds 32 x items axis positions of each line (items elements a
/// thread: 8, or up to kMatchMaxItems with GRAFT_CUDA_SCATTER_STAGE), rows
/// kMatchPitch words apart so that a warp reading one line's 32 consecutive
/// rows hits 32 banks.
constexpr int kMatchLines = 8, kMatchThreads = 32 * kMatchLines, kMatchItems = 8,
              kMatchMaxItems = 16, kMatchPitch = kMatchLines + 1;
/// Chunks of 32 rows whose groups the walk finds before it folds them.
constexpr int kMatchBatch = 8;
/// Accumulators a thread sets from the data with all their loads in flight.
constexpr int kMatchSetBatch = 8;
/// Whether the walk finds its groups by shared-memory atomics by default
/// (GRAFT_CUDA_SCATTER_WALK=atomic) rather than __match_any_sync.
constexpr bool kMatchAtomicByDefault = false;
/// The ranked walk gives a line two warps (4 lines a block, each warp
/// folding the positions of one parity) by default while the unsplit grid
/// has at most this many blocks per SM: the walk is bound by latencies at
/// one block an SM, and split the grid doubles, so twice the warps an SM
/// overlap them (H200, float32 4096x1024 into 512 rows, 128 blocks unsplit:
/// sum 109 us unsplit against 94.2 split, amax 125 against 114, mean 119
/// against 106, round 13). With two blocks an SM unsplit, the registers (about
/// 123 a thread) let no more warps reside, and a split row reads half a
/// sector. GRAFT_CUDA_SCATTER_SPLIT=1 or 2 forces either.
constexpr int64_t kMatchSplitBlocksPerSM = 1;
/// Its dynamic shared memory before the accumulators for a stretch of
/// `rows` axis positions: the stretch's indices (int32) and updates' bits,
/// and the lines' offsets (four int64 each).
__host__ __device__ constexpr size_t matchStageBytes(size_t elemBytes, int rows) {
  return size_t(rows) * kMatchPitch * 4 + (size_t(rows) * kMatchPitch * elemBytes + 15) / 16 * 16 +
         size_t(kMatchLines) * 4 * 8;
}

/// The ranked walk applies when a block's accumulators (axis length x 8
/// lines x (accumulator, a mean's count, a flag byte)) fit the device's
/// opt-in shared memory and the indices are int32 or int64.
void planMatch(Plan &p, ScalarType t) {
  p.match = false;
  if (p.lines == 0 || p.lineLen == 0 || p.g.len == 0 || deviceLimits().sms == 0 ||
      p.g.len > int64_t(INT32_MAX) / kMatchLines ||
      (p.g.idxType != ScalarType::Int32 && p.g.idxType != ScalarType::Int64))
    return;
  size_t elemBytes = dispatch(t, [](auto tag) { return sizeof(decltype(tag)); });
  size_t accBytes = dispatch(t, [](auto tag) { return sizeof(Compute<decltype(tag)>); });
  size_t perElem = accBytes * (p.op == Red::Mean ? 2 : 1) + 1;
  // GRAFT_CUDA_SCATTER_WALK: "rounds", "atomic" or "match" (the groups by
  // __match_any_sync); GRAFT_CUDA_SCATTER_STAGE: elements a thread stages;
  // GRAFT_CUDA_SCATTER_SPLIT=1 or 2: warps a line, 2 with 4 lines a block
  // (an axis of more than 32 positions; not 4 warps a line: the kernel's
  // registers, about 123 a thread, let only two blocks reside on an SM);
  // GRAFT_CUDA_SCATTER_LANES: "packed" or "warp" (the lane walk's lanes a
  // line). Unforced, the defaults below, or the smallest form where they do
  // not fit. The lane walk packs 32 / P lines of P lanes into a warp by
  // default: fewer warps issue the same rows, and on the H200 it measured
  // faster than a warp a line even at one block an SM (float32 4096x1024
  // into 4 rows: sum 108 us against 112, mean 107 against 119, round 13).
  const char *walk = std::getenv("GRAFT_CUDA_SCATTER_WALK");
  const std::string w = walk ? walk : "";
  const int64_t items = envInt("GRAFT_CUDA_SCATTER_STAGE");
  const bool itemsForced = items >= 1 && items <= kMatchMaxItems;
  p.matchRounds = w == "rounds";
  p.matchAtomic = (w == "atomic" || (w.empty() && kMatchAtomicByDefault)) && p.g.len > 32;
  const int64_t splitForced = envInt("GRAFT_CUDA_SCATTER_SPLIT");
  const bool splitByDefault =
      splitForced != 1 && splitForced != 2 &&
      (p.lines + kMatchLines - 1) / kMatchLines <= kMatchSplitBlocksPerSM * deviceLimits().sms;
  p.matchSplit = (splitForced == 2 || splitByDefault) && p.g.len > 32 ? 2 : 1;
  p.matchRows = 32 * int(itemsForced ? items : kMatchItems) * p.matchSplit;
  auto bytes = [&] {
    const size_t elems = size_t(p.g.len) * (kMatchLines / p.matchSplit);
    size_t b = matchStageBytes(elemBytes, p.matchRows) + elems * perElem;
    if (p.matchAtomic) // A 32-bit lane mask per (line, axis position), 4-byte aligned.
      b += 3 + elems * 4;
    return b;
  };
  const size_t limit = size_t(deviceLimits().smemPerBlock);
  p.matchSmemBytes = bytes();
  if (p.matchSmemBytes > limit && (w.empty() || !itemsForced || p.matchSplit > 1)) {
    p.matchAtomic = p.matchAtomic && w == "atomic";
    p.matchSplit = 1;
    p.matchRows = 32 * int(itemsForced ? items : 8);
    p.matchSmemBytes = bytes();
  }
  const int64_t perBlock = kMatchLines / p.matchSplit;
  if (p.matchSmemBytes > limit || (p.lines - 1) / perBlock >= int64_t(INT32_MAX))
    return;
  const char *lanes = std::getenv("GRAFT_CUDA_SCATTER_LANES");
  const std::string l = lanes ? lanes : "";
  p.matchLaneP = l == "warp" ? 32 : p.g.len <= 4 ? 4 : p.g.len <= 8 ? 8 : p.g.len <= 16 ? 16 : 32;
  p.rmAxis = 1;
  for (int d = p.g.ndim - 1; d > p.g.axis; --d)
    p.rmAxis *= p.g.shape[d];
  p.match = true;
}

/// Checks shapes, dtypes and attributes as the CPU kernel; false after
/// ctx.fail.
bool plan(Ctx &ctx, Plan &p) {
  const DLTensor &data = ctx.in(0), &idx = ctx.in(1), &upd = ctx.in(2), &out = ctx.out(0);
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis) || !ctx.boolAttr(2, "include_self", true, p.includeSelf))
    return false;
  std::string red = "update";
  if (ctx.hasAttr(1)) {
    if (ctx.attr(1).kind != GRAFT_CUDA_ATTR_STRING) {
      ctx.fail("attribute 'reduction' must be a string");
      return false;
    }
    red = ctx.attr(1).s;
  }
  if (axis < -data.ndim || axis >= data.ndim) {
    ctx.fail("axis " + std::to_string(axis) + " is out of range for " + std::to_string(data.ndim) +
             " dims");
    return false;
  }
  p.g.axis = int(axis < 0 ? axis + data.ndim : axis);
  if (!parseReduction(red, p.op)) {
    ctx.fail("unknown reduction '" + red + "'");
    return false;
  }
  ScalarType t = scalarTypeOf(data.dtype), it = scalarTypeOf(idx.dtype);
  for (const DLTensor *o : {&upd, &out})
    if (scalarTypeOf(o->dtype) != t) {
      ctx.fail(std::string(o == &upd ? "updates" : "output 0") + " has dtype " +
               dtypeName(o->dtype) + ", expected " + dtypeName(data.dtype));
      return false;
    }
  if (shapeStr(out) != shapeStr(data) || !isCompact(out)) {
    ctx.fail("output must be a compact " + shapeStr(data) + ", got " + shapeStr(out));
    return false;
  }
  if (isFloatType(it) || it == ScalarType::Bool) {
    ctx.fail("indices must be integers, got " + dtypeName(idx.dtype));
    return false;
  }
  if (t == ScalarType::Bool && p.op != Red::Update && p.op != Red::Add) {
    ctx.fail("reduction '" + red + "' does not take bool");
    return false;
  }
  bool shapesOk = idx.ndim == data.ndim && upd.ndim == data.ndim;
  for (int d = 0; shapesOk && d < data.ndim; ++d)
    shapesOk = idx.shape[d] <= upd.shape[d] && (d == p.g.axis || idx.shape[d] <= data.shape[d]);
  if (!shapesOk) {
    ctx.fail("indices " + shapeStr(idx) + " must have the rank of data " + shapeStr(data) +
             " and updates " + shapeStr(upd) + " and fit in both outside the axis");
    return false;
  }
  ScatterGeom &g = p.g;
  g.ndim = data.ndim;
  g.len = data.shape[g.axis];
  g.idx = dataOf(idx);
  g.idxType = it;
  int64_t is[kMaxDims], us[kMaxDims];
  elementStrides(idx, is);
  elementStrides(upd, us);
  int64_t rm = 1;
  for (int d = data.ndim - 1; d >= 0; --d) {
    g.shape[d] = idx.shape[d];
    g.idxStride[d] = is[d] * ((idx.dtype.bits + 7) / 8);
    g.updStride[d] = us[d];
    g.outStride[d] = rm;
    rm *= data.shape[d];
  }
  p.updates = numel(idx);
  p.targets = numel(data);
  p.coversOutput = true;
  for (int d = 0; d < data.ndim; ++d)
    p.coversOutput &= d == g.axis || idx.shape[d] == data.shape[d];
  // The largest update offset, for the width of the sort's values.
  int64_t maxOff = 0;
  for (int d = 0; d < upd.ndim; ++d)
    maxOff += (upd.shape[d] - 1) * (us[d] < 0 ? -us[d] : us[d]);
  p.wide = p.targets >= int64_t(UINT32_MAX) || maxOff >= int64_t(UINT32_MAX) ||
           p.updates >= int64_t(INT32_MAX);
  p.lineLen = idx.ndim ? idx.shape[g.axis] : 1;
  p.lines = p.lineLen ? p.updates / p.lineLen : 0;
  // Tiles when a line fits a block (no global sort) and its updates spread
  // over the axis: a line of more than 32 updates per target element folds
  // long serial runs in one block, where the global plan spreads them over
  // the GPU (H200: 4096-update lines into 512 targets 227 us tiled against
  // 281 us global, into 4 targets 654 against 261). Else lines when there are
  // many long ones (keys are positions along the axis: fewer bits, so fewer
  // sort passes); else all updates. GRAFT_CUDA_SCATTER=global|lines|tile
  // forces one (tests and benchmarks compare them).
  const char *force = std::getenv("GRAFT_CUDA_SCATTER");
  std::string plan = force ? force : "";
  // The column walk, forced only: on the H200 it took 298 us for a float32
  // sum into 4 rows and 834 for amax (the owner fold: 84), slower than the
  // plans below (docs/performance.md).
  if (plan == "column" || plan == "column-smem") {
    planColumn(p, t, plan == "column-smem");
    if (p.column)
      return true;
  }
  // The ranked walk by default where it fills the GPU (at least half a
  // block per SM, lines adjacent in memory: the axis is not the last, so a
  // staged row is contiguous), except where the owner fold's chunks are
  // exact and the axis has at most 32 positions (the lane walk reads every
  // row in every lane; the owner fold took 83-84 us for float32 amax into 4
  // rows on the H200, within its bar). Short lines too: the tile plan packs
  // them into few 1024-thread blocks (8x1024 updates into 4 rows: one
  // block, 57.3 us a call on the H200 against 28.6 through the walk).
  if (plan == "match" || plan.empty()) {
    planMatch(p, t);
    const int64_t sms = std::max(1, deviceLimits().sms);
    const bool fills = p.lines >= int64_t(kMatchLines) * sms / 2 && p.g.axis != p.g.ndim - 1;
    const bool ownerBetter = chunksExact(p.op, t) && p.g.len <= 32;
    if (p.match && (plan == "match" || (fills && !ownerBetter)))
      return true;
    p.match = false;
  }
  // The owner fold first, where its chunks are exact (no sort at all).
  if (plan.empty() || plan == "owner" || plan == "owner-reorder") {
    planOwner(p, t, !plan.empty(), plan == "owner-reorder");
    if (p.owner)
      return true;
  }
  planTile(p);
  bool spread = p.lineLen < 32 * p.g.len;
  if (p.tiled && (plan == "tile" || (plan.empty() && spread)))
    return true;
  p.tiled = false;
  if (plan == "global")
    p.byLines = false;
  else if (plan == "lines")
    p.byLines = p.lines > 0;
  else
    p.byLines = p.lines >= 256 && p.lineLen >= 64;
  uint64_t keyMax = p.byLines ? uint64_t(g.len) : uint64_t(p.targets);
  while (p.endBit < 64 && (uint64_t(1) << p.endBit) <= keyMax)
    ++p.endBit;
  return true;
}

template <class K>
cudaError_t sortPairs(void *temp, size_t &bytes, const Plan &p, K *keysIn, K *keysOut, K *valsIn,
                      K *valsOut, const int64_t *offsets, cudaStream_t s) {
  if (p.byLines)
    return cub::DeviceSegmentedRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valsIn, valsOut,
                                                    p.updates, p.lines, offsets, offsets + 1, 0,
                                                    p.endBit, s);
  return cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valsIn, valsOut, p.updates,
                                         0, p.endBit, s);
}

bool layoutFor(const Plan &p, cudaStream_t s, Layout &l) {
  if (p.owner) {
    size_t n = size_t(p.chunks) * size_t(p.tiles) * size_t(p.g.len) * kOwnerLines;
    WorkspaceCarver c;
    l.partAcc = c.take(n * p.accBytes);
    if (p.op == Red::Mean)
      l.partCount = c.take(n * p.accBytes);
    l.partFlag = c.take(n);
    l.total = c.total();
    return true;
  }
  if (p.tiled || p.column || p.match)
    return true; // No workspace: shared memory and registers only.
  size_t keyBytes = p.wide ? 8 : 4;
  cudaError_t e = p.wide ? sortPairs<uint64_t>(nullptr, l.tempBytes, p, nullptr, nullptr, nullptr,
                                               nullptr, nullptr, s)
                         : sortPairs<uint32_t>(nullptr, l.tempBytes, p, nullptr, nullptr, nullptr,
                                               nullptr, nullptr, s);
  if (e != cudaSuccess)
    return false;
  WorkspaceCarver c;
  size_t n = size_t(p.updates) * keyBytes;
  l.keysIn = c.take(n);
  l.keysOut = c.take(n);
  l.valsIn = c.take(n);
  l.valsOut = c.take(n);
  if (p.byLines)
    l.offsets = c.take(size_t(p.lines + 1) * 8);
  l.temp = c.take(l.tempBytes);
  l.total = c.total();
  return true;
}

size_t scatterWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 3 || args->numOutputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  Plan p;
  Layout l;
  if (!plan(ctx, p) || p.updates == 0 || !layoutFor(p, ctx.stream(), l))
    return 0;
  return l.total;
}

//===----------------------------------------------------------------------===//
// By lines: the updates of one line (all coordinates but the axis equal)
// land on elements of one output line, in order of their position along
// the axis. Each line is laid out by itself, sorted by the position its
// index names (cub's segmented radix sort: few key bits, few passes), and
// each element finds its run inside its line.
//===----------------------------------------------------------------------===//

/// The line of coordinates `c` (all but the axis, row-major) and the
/// output offset of its element at axis position 0.
__device__ inline int64_t lineBase(const ScatterGeom &g, int64_t line) {
  int64_t base = 0;
  for (int d = g.ndim - 1; d >= 0; --d) {
    if (d == g.axis)
      continue;
    base += (line % g.shape[d]) * g.outStride[d];
    line /= g.shape[d];
  }
  return base;
}

template <class K>
__global__ void lineKeysKernel(ScatterGeom g, int64_t n, int64_t lineLen, K sentinel, K *keys,
                               K *vals, BadIndexRecord *bad) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t u = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < n; u += stride) {
    int64_t rem = u, ioff = 0, uoff = 0, line = 0, lineMul = 1, at = 0;
    for (int d = g.ndim - 1; d >= 0; --d) {
      int64_t c = rem % g.shape[d];
      rem /= g.shape[d];
      ioff += c * g.idxStride[d];
      uoff += c * g.updStride[d];
      if (d == g.axis) {
        at = c;
      } else {
        line += c * lineMul;
        lineMul *= g.shape[d];
      }
    }
    int64_t k = loadAs<int64_t>(g.idx + ioff, g.idxType), pos = line * lineLen + at;
    if (k < -g.len || k >= g.len) {
      noteBadIndex(bad, (unsigned long long)u);
      keys[pos] = sentinel;
      vals[pos] = 0;
      continue;
    }
    keys[pos] = K(k < 0 ? k + g.len : k);
    vals[pos] = K(uoff);
  }
  finishBadIndexCheck(bad, g);
}

__global__ void lineOffsets(int64_t *off, int64_t len, int64_t lines) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i <= lines; i += stride)
    off[i] = i * len;
}

/// A thread per (line, axis position).
template <class T, class K>
__global__ void lineFoldThreadKernel(ScatterGeom g, const K *keys, const K *vals, int64_t lines,
                                     int64_t lineLen, Red op, bool includeSelf, const T *upd,
                                     T *out) {
  awaitUpstream();
  int64_t total = lines * g.len, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t line = t / g.len, k = t - line * g.len;
    const K *seg = keys + line * lineLen;
    int64_t j = lowerBound(seg, lineLen, K(k));
    if (j == lineLen || seg[j] != K(k))
      continue;
    T *dst = out + lineBase(g, line) + k * g.outStride[g.axis];
    Fold<T> f(op, includeSelf, loadElem<T>(dst));
    for (; j < lineLen && seg[j] == K(k); ++j)
      f.add(loadElem<T>(upd + vals[line * lineLen + j]));
    storeElem<T>(dst, f.result());
  }
}

/// A warp per (line, axis position), for long runs.
template <class T, class K>
__global__ void lineFoldWarpKernel(ScatterGeom g, const K *keys, const K *vals, int64_t lines,
                                   int64_t lineLen, Red op, bool includeSelf, const T *upd,
                                   T *out) {
  awaitUpstream();
  int lane = int(threadIdx.x & 31);
  int64_t total = lines * g.len, warps = (int64_t(gridDim.x) * blockDim.x) / 32;
  for (int64_t t = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; t < total; t += warps) {
    int64_t line = t / g.len, k = t - line * g.len;
    const K *seg = keys + line * lineLen;
    const K *segVals = vals + line * lineLen;
    int64_t lo = lowerBound(seg, lineLen, K(k)), hi = lowerBound(seg, lineLen, K(k + 1));
    if (lo == hi)
      continue;
    T *dst = out + lineBase(g, line) + k * g.outStride[g.axis];
    Fold<T> f(op, includeSelf, loadElem<T>(dst));
    for (int64_t b = lo; b < hi; b += 32) {
      Compute<T> v = b + lane < hi ? loadElem<T>(upd + segVals[b + lane]) : Compute<T>(0);
      int m = int(hi - b < 32 ? hi - b : 32);
      for (int i = 0; i < m; ++i)
        f.add(shuffle(v, i));
    }
    if (lane == 0)
      storeElem<T>(dst, f.result());
  }
}

template <class T, class K>
int runLines(Ctx &ctx, const Plan &p, const Layout &l, char *base, BadIndexRecord *bad) {
  cudaStream_t s = ctx.stream();
  auto *keysIn = reinterpret_cast<K *>(base + l.keysIn);
  auto *keysOut = reinterpret_cast<K *>(base + l.keysOut);
  auto *valsIn = reinterpret_cast<K *>(base + l.valsIn);
  auto *valsOut = reinterpret_cast<K *>(base + l.valsOut);
  auto *offsets = reinterpret_cast<int64_t *>(base + l.offsets);
  lineKeysKernel<K><<<gridFor(p.updates, kScatterThreads), kScatterThreads, 0, s>>>(
      p.g, p.updates, p.lineLen, K(p.g.len), keysIn, valsIn, bad);
  lineOffsets<<<gridFor(p.lines + 1, kScatterThreads), kScatterThreads, 0, s>>>(offsets, p.lineLen,
                                                                                p.lines);
  if (int rc = ctx.checkLaunch("lineKeysKernel"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e =
      sortPairs<K>(base + l.temp, tempBytes, p, keysIn, keysOut, valsIn, valsOut, offsets, s);
  if (e)
    return ctx.failCuda("cub::DeviceSegmentedRadixSort::SortPairs", e);
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  int64_t elements = p.lines * p.g.len;
  if (p.lineLen >= 32 * p.g.len) {
    lineFoldWarpKernel<T, K><<<gridFor(elements * 32, kScatterThreads), kScatterThreads, 0, s>>>(
        p.g, keysOut, valsOut, p.lines, p.lineLen, p.op, p.includeSelf, upd, out);
    return ctx.checkLaunch("lineFoldWarpKernel");
  }
  lineFoldThreadKernel<T, K><<<gridFor(elements, kScatterThreads), kScatterThreads, 0, s>>>(
      p.g, keysOut, valsOut, p.lines, p.lineLen, p.op, p.includeSelf, upd, out);
  return ctx.checkLaunch("lineFoldThreadKernel");
}

//===----------------------------------------------------------------------===//
// By tiles: a block takes 2^tileBits whole lines (adjacent lines: adjacent
// addresses when the axis is not the last), sorts their updates' values by
// (line, axis position named) with cub::BlockRadixSort in shared memory
// (stable: index order within a key), and folds each element's run from
// there. Every update is read once from global memory and nothing is
// written but the output.
//===----------------------------------------------------------------------===//

/// Offsets of line `line` at axis position 0: indices (bytes), updates and
/// output (elements), and its row-major position among the updates.
__device__ inline void lineStart(const ScatterGeom &g, int64_t line, int64_t &idxOff,
                                 int64_t &updOff, int64_t &outOff, int64_t &uBase) {
  idxOff = updOff = outOff = uBase = 0;
  int64_t rm = 1;
  for (int d = g.ndim - 1; d >= 0; --d) {
    if (d != g.axis) {
      int64_t c = line % g.shape[d];
      line /= g.shape[d];
      idxOff += c * g.idxStride[d];
      updOff += c * g.updStride[d];
      outOff += c * g.outStride[d];
      uBase += c * rm;
    }
    rm *= g.shape[d];
  }
}

struct TileArgs {
  ScatterGeom g;
  int64_t lines, lineLen, rmAxis;
  int kBits, tileBits;
  Red op;
  bool includeSelf;
};

template <int Bytes> struct BitsOf;
template <> struct BitsOf<1> { using type = uint8_t; };
template <> struct BitsOf<2> { using type = uint16_t; };
template <> struct BitsOf<4> { using type = uint32_t; };
template <> struct BitsOf<8> { using type = uint64_t; };

/// A tile's lines whose offsets one table in shared memory holds.
constexpr int kLineTable = 64;

struct LineOffsets {
  int64_t idx, upd, out, rm;
};
static_assert(sizeof(LineOffsets) == 4 * sizeof(int64_t), "columnSmemLimit counts four offsets");

template <class T>
using TileSort =
    cub::BlockRadixSort<uint32_t, kTileThreads, kTileItems, typename BitsOf<sizeof(T)>::type>;

/// The dynamic shared memory of tileKernel<T>: the sort's storage, then the
/// sorted keys and the updates' bits in the same bytes.
template <class T> constexpr size_t tileSmemBytes() {
  size_t arrays = size_t(kTileCap) * (4 + sizeof(T));
  size_t sort = sizeof(typename TileSort<T>::TempStorage);
  return arrays > sort ? arrays : sort;
}

/// Keys are (line in tile, axis position named); every update is read once
/// (its index and its value, in index order per thread) and the values
/// ride through the sort, which is stable and sorts only the key's bits.
template <class T>
__global__ void __launch_bounds__(kTileThreads)
    tileKernel(TileArgs a, const T *upd, T *out, BadIndexRecord *bad) {
  awaitUpstream();
  using V = typename BitsOf<sizeof(T)>::type;
  using Sort = TileSort<T>;
  extern __shared__ __align__(16) unsigned char tileSmem[];
  __shared__ LineOffsets table[kLineTable];
  uint32_t *sKeys = reinterpret_cast<uint32_t *>(tileSmem);
  V *sVals = reinterpret_cast<V *>(tileSmem + size_t(kTileCap) * 4);
  const ScatterGeom &g = a.g;
  const int64_t line0 = int64_t(blockIdx.x) << a.tileBits;
  const int tileLines = 1 << a.tileBits;
  const bool tabled = tileLines <= kLineTable;
  if (tabled && int(threadIdx.x) < tileLines && line0 + threadIdx.x < a.lines) {
    LineOffsets &l = table[threadIdx.x];
    lineStart(g, line0 + threadIdx.x, l.idx, l.upd, l.out, l.rm);
  }
  __syncthreads();
  const int64_t axisIdx = g.idxStride[g.axis], axisUpd = g.updStride[g.axis];
  // Blocked: thread t holds positions t * kTileItems + it, position q being
  // update i of line (q mod lines per tile): index order within each line,
  // which the stable sort keeps within each key.
  uint32_t keys[kTileItems];
  V vals[kTileItems];
#pragma unroll
  for (int it = 0; it < kTileItems; ++it) {
    int q = int(threadIdx.x) * kTileItems + it;
    int t = q & (tileLines - 1);
    int64_t i = q >> a.tileBits;
    keys[it] = 0xffffffffu; // Padding sorts last.
    vals[it] = 0;
    if (i >= a.lineLen || line0 + t >= a.lines)
      continue;
    LineOffsets l;
    if (tabled)
      l = table[t];
    else
      lineStart(g, line0 + t, l.idx, l.upd, l.out, l.rm);
    int64_t k = loadAs<int64_t>(g.idx + l.idx + i * axisIdx, g.idxType);
    if (k < -g.len || k >= g.len) { // Keyed past every element: never folded.
      noteBadIndex(bad, (unsigned long long)(l.rm + i * a.rmAxis));
      k = g.len;
    } else if (k < 0) {
      k += g.len;
    }
    keys[it] = (uint32_t(t) << a.kBits) | uint32_t(k);
    vals[it] = *reinterpret_cast<const V *>(upd + l.upd + i * axisUpd);
  }
  Sort(*reinterpret_cast<typename Sort::TempStorage *>(tileSmem))
      .SortBlockedToStriped(keys, vals, 0, a.kBits + a.tileBits);
  __syncthreads(); // The sort's storage becomes the sorted arrays.
  // Striped: item it of thread t has rank it * kTileThreads + t.
#pragma unroll
  for (int it = 0; it < kTileItems; ++it) {
    sKeys[it * kTileThreads + threadIdx.x] = keys[it];
    sVals[it * kTileThreads + threadIdx.x] = vals[it];
  }
  __syncthreads();
  // The thread holding the first update of an element's run folds the run.
  const uint32_t kMask = (uint32_t(1) << a.kBits) - 1;
  for (int it = 0; it < kTileItems; ++it) {
    int j = it * kTileThreads + int(threadIdx.x);
    uint32_t key = sKeys[j];
    int64_t k = key & kMask;
    if (key == 0xffffffffu || k >= g.len || (j > 0 && sKeys[j - 1] == key))
      continue;
    int t = int(key >> a.kBits);
    LineOffsets l;
    if (tabled)
      l = table[t];
    else
      lineStart(g, line0 + t, l.idx, l.upd, l.out, l.rm);
    // The run's end: doubling steps, then halving (short runs take a few
    // probes, long ones no serial walk over the keys).
    int lo = j + 1, step = 1;
    while (lo < kTileCap && sKeys[lo] == key) {
      lo += step;
      step *= 2;
    }
    int hi = lo < kTileCap ? lo : kTileCap;
    lo -= step / 2 ? step / 2 : 1; // The last position known to hold key, plus 1.
    lo = lo < j + 1 ? j + 1 : lo;
    while (lo < hi) { // First position in [lo, hi) past the run.
      int mid = (lo + hi) / 2;
      if (sKeys[mid] == key)
        lo = mid + 1;
      else
        hi = mid;
    }
    T *dst = out + l.out + k * g.outStride[g.axis];
    Fold<T> f(a.op, a.includeSelf, loadElem<T>(dst));
#pragma unroll 4
    for (; j < hi; ++j)
      f.add(loadElem<T>(reinterpret_cast<const T *>(sVals + j)));
    storeElem<T>(dst, f.result());
  }
  finishBadIndexCheck(bad, g);
}

template <class T> int runTiles(Ctx &ctx, const Plan &p, BadIndexRecord *bad) {
  TileArgs a{p.g, p.lines, p.lineLen, p.rmAxis, p.kBits, p.tileBits, p.op, p.includeSelf};
  int64_t tiles = (p.lines + (int64_t(1) << p.tileBits) - 1) >> p.tileBits;
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  constexpr size_t smemBytes = tileSmemBytes<T>();
  static const cudaError_t attrErr = cudaFuncSetAttribute(
      tileKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  tileKernel<T><<<unsigned(tiles), kTileThreads, smemBytes, ctx.stream()>>>(a, upd, out, bad);
  return ctx.checkLaunch("tileKernel");
}

//===----------------------------------------------------------------------===//
// The owner fold: no sort. A block is one warp and owns a tile of 32
// consecutive lines and a chunk of consecutive axis positions; each thread
// owns one line and folds its chunk's updates in index order into its own
// column of a shared-memory accumulator [axis position][line in tile] (so
// no thread reads what another writes). A second kernel folds each
// element's chunk partials in chunk order into the data's value.
//===----------------------------------------------------------------------===//

struct OwnerArgs {
  ScatterGeom g;
  int64_t lines, lineLen, rmAxis, chunkRows, tiles, chunks;
  Red op;
  bool includeSelf;
};

/// Updates read ahead per thread before they are folded (loads in flight).
constexpr int kOwnerBatch = 16;

/// Loads the indices and updates at axis positions [i, i + kOwnerBatch)
/// below `end` of one line.
template <class T, class I>
__device__ inline void ownerLoad(const char *ip, const T *up, int64_t axisIdx, int64_t axisUpd,
                                 int64_t i, int64_t end, int64_t (&ks)[kOwnerBatch],
                                 Compute<T> (&vs)[kOwnerBatch]) {
#pragma unroll
  for (int b = 0; b < kOwnerBatch; ++b) {
    ks[b] = 0;
    vs[b] = Compute<T>(0);
    if (i + b < end) {
      ks[b] = int64_t(*reinterpret_cast<const I *>(ip + (i + b) * axisIdx));
      vs[b] = loadElem<T>(up + (i + b) * axisUpd);
    }
  }
}

template <class T, class I>
__global__ void __launch_bounds__(kOwnerLines)
    ownerFoldKernel(OwnerArgs a, const T *upd, const T *src, Compute<T> *partAcc,
                    Compute<T> *partCount, uint8_t *partFlag, BadIndexRecord *bad) {
  awaitUpstream();
  using C = Compute<T>;
  extern __shared__ __align__(16) unsigned char ownerSmem[];
  const ScatterGeom &g = a.g;
  const int lane = int(threadIdx.x);
  const int64_t len = g.len, elems = len * kOwnerLines;
  C *sAcc = reinterpret_cast<C *>(ownerSmem);
  C *sCount = sAcc + (a.op == Red::Mean ? elems : 0);
  uint8_t *sFlag = reinterpret_cast<uint8_t *>(sCount + elems);
  const int64_t tile = blockIdx.x, chunk = blockIdx.y, line = tile * kOwnerLines + lane;
  const int64_t i0 = chunk * a.chunkRows;
  const int64_t i1 = i0 + a.chunkRows < a.lineLen ? i0 + a.chunkRows : a.lineLen;
  int64_t idxOff = 0, updOff = 0, outOff = 0, rm = 0;
  if (line < a.lines)
    lineStart(g, line, idxOff, updOff, outOff, rm);
  // Column `lane` of the accumulator is this thread's alone. Chunk 0 starts
  // from the data's values (include_self; `src` is the data, or the output
  // that already holds it), so one chunk is the CPU's fold.
  const bool self = chunk == 0 && a.includeSelf && a.op != Red::Update && line < a.lines;
  for (int64_t k0 = 0; k0 < len; k0 += kOwnerBatch) {
    C v[kOwnerBatch]; // Loaded first, so a batch's loads are in flight together.
#pragma unroll
    for (int b = 0; b < kOwnerBatch; ++b)
      v[b] =
          self && k0 + b < len ? loadElem<T>(src + outOff + (k0 + b) * g.outStride[g.axis]) : C(0);
#pragma unroll
    for (int b = 0; b < kOwnerBatch; ++b) {
      if (k0 + b >= len)
        break;
      int64_t e = (k0 + b) * kOwnerLines + lane;
      sFlag[e] = self;
      sAcc[e] = v[b];
      if (a.op == Red::Mean)
        sCount[e] = C(1);
    }
  }
  if (line < a.lines) {
    const char *ip = g.idx + idxOff;
    const T *up = upd + updOff;
    const int64_t axisIdx = g.idxStride[g.axis], axisUpd = g.updStride[g.axis];
    // Two batches in flight: the next one loads while this one folds.
    int64_t ks[kOwnerBatch], kn[kOwnerBatch];
    C vs[kOwnerBatch], vn[kOwnerBatch];
    ownerLoad<T, I>(ip, up, axisIdx, axisUpd, i0, i1, ks, vs);
    for (int64_t i = i0; i < i1; i += kOwnerBatch) {
      ownerLoad<T, I>(ip, up, axisIdx, axisUpd, i + kOwnerBatch, i1, kn, vn);
#pragma unroll
      for (int b = 0; b < kOwnerBatch; ++b) {
        if (i + b >= i1)
          break;
        int64_t k = ks[b];
        if (k < -len || k >= len) { // Never folded; reported at the next sync.
          noteBadIndex(bad, (unsigned long long)(rm + (i + b) * a.rmAxis));
          continue;
        }
        int64_t e = (k < 0 ? k + len : k) * kOwnerLines + lane;
        bool first = !sFlag[e];
        sAcc[e] = first ? vs[b] : step<T>(a.op, sAcc[e], vs[b]);
        if (a.op == Red::Mean)
          sCount[e] = first ? C(1) : roundC<T>(ops::addC(sCount[e], C(1)));
        sFlag[e] = 1;
      }
#pragma unroll
      for (int b = 0; b < kOwnerBatch; ++b) {
        ks[b] = kn[b];
        vs[b] = vn[b];
      }
    }
  }
  // The partial, laid out [chunk][tile][axis position][line in tile].
  int64_t base = (chunk * a.tiles + tile) * elems;
  for (int64_t e = lane; e < elems; e += kOwnerLines) {
    uint8_t f = sFlag[e];
    partFlag[base + e] = f;
    if (f) {
      partAcc[base + e] = sAcc[e];
      if (a.op == Red::Mean)
        partCount[base + e] = sCount[e];
    }
  }
  finishBadIndexCheck(bad, g);
}

/// A thread per (tile, axis position, line in tile): each chunk's partial
/// in chunk order (chunk 0's holds the data's value with include_self).
/// With `copyRest` (the lines cover the output, which does not hold the
/// data yet) an element no update and no self touched takes src's value.
template <class T>
__global__ void ownerCombineKernel(OwnerArgs a, const Compute<T> *partAcc,
                                   const Compute<T> *partCount, const uint8_t *partFlag,
                                   const T *src, bool copyRest, T *out) {
  awaitUpstream();
  using C = Compute<T>;
  const ScatterGeom &g = a.g;
  const int64_t elems = g.len * kOwnerLines, total = a.tiles * elems,
                stride = int64_t(gridDim.x) * blockDim.x, chunkStride = a.tiles * elems;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t tile = t / elems, e = t - tile * elems, k = e / kOwnerLines;
    int64_t line = tile * kOwnerLines + (e - k * kOwnerLines);
    if (line >= a.lines)
      continue;
    // Unconditional loads (a partial's accumulator is read even where its
    // flag is off, and then unused) so that the unrolled loop has several
    // chunks' loads in flight; only the fold is serial.
    Fold<T> f(a.op, false, C(0));
#pragma unroll 8
    for (int64_t c = 0; c < a.chunks; ++c) {
      int64_t at = t + c * chunkStride;
      uint8_t flag = partFlag[at];
      C v = partAcc[at], n = a.op == Red::Mean ? partCount[at] : C(1);
      if (flag)
        f.merge(v, n);
    }
    if (!f.started && !copyRest)
      continue;
    int64_t idxOff, updOff, outOff, rm;
    lineStart(g, line, idxOff, updOff, outOff, rm);
    const int64_t o = outOff + k * g.outStride[g.axis];
    if (f.started)
      storeElem<T>(out + o, f.result());
    else
      out[o] = src[o];
  }
}

template <class T, class I>
int runOwner(Ctx &ctx, const Plan &p, const Layout &l, char *base, const T *src, bool copyRest,
             BadIndexRecord *bad) {
  using C = Compute<T>;
  OwnerArgs a{p.g,     p.lines,  p.lineLen, p.rmAxis,     p.chunkRows,
              p.tiles, p.chunks, p.op,      p.includeSelf};
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  auto *partAcc = reinterpret_cast<C *>(base + l.partAcc);
  auto *partCount = p.op == Red::Mean ? reinterpret_cast<C *>(base + l.partCount) : nullptr;
  auto *partFlag = reinterpret_cast<uint8_t *>(base + l.partFlag);
  // Every byte of shared memory an SM has (blocks of a large tile reside
  // by shared memory, not by threads).
  static const cudaError_t attrErr = [] {
    cudaError_t e =
        cudaFuncSetAttribute(ownerFoldKernel<T, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             deviceLimits().smemPerBlock);
    if (e == cudaSuccess)
      e = cudaFuncSetAttribute(ownerFoldKernel<T, I>,
                               cudaFuncAttributePreferredSharedMemoryCarveout,
                               int(cudaSharedmemCarveoutMaxShared));
    return e;
  }();
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  cudaStream_t s = ctx.stream();
  dim3 grid(unsigned(p.tiles), unsigned(p.chunks));
  ownerFoldKernel<T, I>
      <<<grid, kOwnerLines, p.ownerSmem, s>>>(a, upd, src, partAcc, partCount, partFlag, bad);
  if (int rc = ctx.checkLaunch("ownerFoldKernel"))
    return rc;
  ownerCombineKernel<T>
      <<<gridFor(p.tiles * p.g.len * kOwnerLines, kScatterThreads), kScatterThreads, 0, s>>>(
          a, partAcc, partCount, partFlag, src, copyRest, out);
  return ctx.checkLaunch("ownerCombineKernel");
}

//===----------------------------------------------------------------------===//
// The column walk: no sort and no chunks, so exact for every reduction and
// dtype. A block takes `lb` consecutive lines; its threads stage a stretch
// of the lines' indices (checked, made non-negative) and updates in shared
// memory, loaded coalesced across lines while the previous stretch folds.
// A fold thread per (line, axis position) walks its line's stretch in
// index order and folds the updates that name its position in registers:
// every output element has one owner, which sees its updates in index
// order, as the CPU does. Each thread reads the whole line, so the work
// grows with the axis length: for short axes (few target rows).
//===----------------------------------------------------------------------===//

struct ColumnArgs {
  ScatterGeom g;
  int64_t lines, lineLen, rmAxis;
  int lb, lbBits; ///< Lines per block: 1 << lbBits, and lb x axis length <= kColumnThreads.
  Red op;
  bool includeSelf;
};

/// Calls fn(std::integral_constant<Red, op>{}): the step known at compile
/// time in a fold loop, with no switch per update.
template <class Fn> __device__ inline void withOp(Red op, Fn &&fn) {
  switch (op) {
  case Red::Update:
    return fn(std::integral_constant<Red, Red::Update>{});
  case Red::Add:
    return fn(std::integral_constant<Red, Red::Add>{});
  case Red::Mul:
    return fn(std::integral_constant<Red, Red::Mul>{});
  case Red::Mean:
    return fn(std::integral_constant<Red, Red::Mean>{});
  case Red::Max:
    return fn(std::integral_constant<Red, Red::Max>{});
  case Red::Min:
    return fn(std::integral_constant<Red, Red::Min>{});
  }
}

/// A block's lines staged a stretch at a time: stretch element e is axis
/// position e / lb of line e % lb (consecutive threads read consecutive
/// lines); the next stretch loads into registers while this one folds.
template <class T, class I> struct ColumnStage {
  using V = typename BitsOf<sizeof(T)>::type;
  const ColumnArgs &a;
  const LineOffsets *table;
  const T *upd;
  int lines, tid;
  I ks[kColumnItems];
  V vs[kColumnItems];

  __device__ void load(int64_t r0) {
    const ScatterGeom &g = a.g;
    const int64_t axisIdx = g.idxStride[g.axis], axisUpd = g.updStride[g.axis];
#pragma unroll
    for (int it = 0; it < kColumnItems; ++it) {
      int e = it * kColumnThreads + tid, t = e & (a.lb - 1);
      int64_t i = r0 + (e >> a.lbBits);
      ks[it] = I(-1);
      vs[it] = 0;
      if (t < lines && i < a.lineLen) {
        ks[it] = *reinterpret_cast<const I *>(g.idx + table[t].idx + i * axisIdx);
        vs[it] = *reinterpret_cast<const V *>(upd + table[t].upd + i * axisUpd);
      }
    }
  }

  /// Stores the loaded stretch: indices checked and made non-negative, -1
  /// for padding and bad ones (the first bad position goes to `bad`).
  __device__ void store(int64_t r0, int32_t *sK, V *sV, BadIndexRecord *bad) const {
    const int64_t len = a.g.len;
#pragma unroll
    for (int it = 0; it < kColumnItems; ++it) {
      int e = it * kColumnThreads + tid, t = e & (a.lb - 1);
      int64_t i = r0 + (e >> a.lbBits), k = int64_t(ks[it]);
      int32_t key = -1;
      if (t < lines && i < a.lineLen) {
        if (k < -len || k >= len) // Never folded; reported at the next sync.
          noteBadIndex(bad, (unsigned long long)(table[t].rm + i * a.rmAxis));
        else
          key = int32_t(k < 0 ? k + len : k);
      }
      sK[e] = key;
      sV[e] = vs[it];
    }
  }
};

/// The block's lines' offsets into `table`; the lines this block has.
__device__ inline int columnLines(const ColumnArgs &a, LineOffsets *table) {
  const int64_t line0 = int64_t(blockIdx.x) * a.lb;
  const int lines = int(a.lines - line0 < a.lb ? a.lines - line0 : a.lb);
  if (int(threadIdx.x) < lines) {
    LineOffsets &l = table[threadIdx.x];
    lineStart(a.g, line0 + threadIdx.x, l.idx, l.upd, l.out, l.rm);
  }
  __syncthreads();
  return lines;
}

/// Folds the updates of a staged stretch's `n` axis positions that name
/// position `pos` of line `mine`, in index order.
template <class T, Red Op, class V>
__device__ inline void columnFold(Fold<T> &f, bool &touched, const int32_t *sK, const V *sV, int n,
                                  int lb, int mine, int pos) {
  f.op = Op;
#pragma unroll 8
  for (int r = 0; r < n; ++r) {
    int j = r * lb + mine;
    if (sK[j] == pos) {
      f.add(loadElem<T>(reinterpret_cast<const T *>(sV + j)));
      touched = true;
    }
  }
}

template <class T, class I>
__global__ void __launch_bounds__(kColumnThreads)
    columnKernel(ColumnArgs a, const T *upd, T *out, BadIndexRecord *bad) {
  awaitUpstream();
  using V = typename BitsOf<sizeof(T)>::type;
  __shared__ int32_t sK[kColumnStage];
  __shared__ V sV[kColumnStage];
  __shared__ LineOffsets table[kColumnThreads];
  const ScatterGeom &g = a.g;
  const int lb = a.lb, tid = int(threadIdx.x);
  const int lines = columnLines(a, table);
  const int rows = kColumnStage / lb; // Axis positions of a stretch.
  // Fold thread: line `mine`, axis position `pos`.
  const int mine = tid & (lb - 1), pos = tid >> a.lbBits;
  const bool folds = mine < lines && pos < g.len;
  T *dst = folds ? out + table[mine].out + pos * g.outStride[g.axis] : nullptr;
  Fold<T> f(a.op, a.includeSelf, folds && a.includeSelf ? loadElem<T>(dst) : Compute<T>(0));
  bool touched = false;
  ColumnStage<T, I> stage{a, table, upd, lines, tid};
  stage.load(0);
  for (int64_t r0 = 0; r0 < a.lineLen; r0 += rows) {
    __syncthreads(); // The previous stretch is folded.
    stage.store(r0, sK, sV, bad);
    __syncthreads();
    if (r0 + rows < a.lineLen)
      stage.load(r0 + rows); // In flight while this stretch folds.
    if (!folds)
      continue;
    const int n = int(a.lineLen - r0 < rows ? a.lineLen - r0 : rows);
    withOp(a.op, [&](auto op) {
      columnFold<T, decltype(op)::value>(f, touched, sK, sV, n, lb, mine, pos);
    });
  }
  if (touched)
    storeElem<T>(dst, f.result());
  finishBadIndexCheck(bad, g);
}

/// Rows folded together by the shared-memory column walk: their
/// accumulators load at once, and a row naming the same position as an
/// earlier one of the batch takes that one's new value (forwarding).
constexpr int kColumnBatch = 4;

/// Folds a staged stretch of line `mine` into the shared-memory
/// accumulators [axis position][line] in index order.
template <class T, Red Op, class V>
__device__ inline void columnSmemFold(const int32_t *sK, const V *sV, Compute<T> *sAcc,
                                      Compute<T> *sCount, uint8_t *sFlag, int n, int lb, int mine) {
  using C = Compute<T>;
  auto fold = [&](int r, auto batch) {
    constexpr int B = decltype(batch)::value;
    int k[B], e[B];
    C v[B], acc[B], cnt[B];
    bool on[B];
#pragma unroll
    for (int b = 0; b < B; ++b) {
      int j = (r + b) * lb + mine;
      k[b] = sK[j];
      v[b] = loadElem<T>(reinterpret_cast<const T *>(sV + j));
      e[b] = (k[b] < 0 ? 0 : k[b]) * lb + mine;
      acc[b] = sAcc[e[b]];
      on[b] = k[b] >= 0 && sFlag[e[b]];
      cnt[b] = Op == Red::Mean ? sCount[e[b]] : C(0);
    }
#pragma unroll
    for (int b = 0; b < B; ++b) {
#pragma unroll
      for (int c = 0; c < b; ++c)
        if (k[c] == k[b]) { // The latest earlier row of the batch wins.
          acc[b] = acc[c];
          cnt[b] = cnt[c];
          on[b] = true;
        }
      acc[b] = on[b] ? step<T>(Op, acc[b], v[b]) : v[b];
      if (Op == Red::Mean)
        cnt[b] = on[b] ? roundC<T>(ops::addC(cnt[b], C(1))) : C(1);
    }
#pragma unroll
    for (int b = 0; b < B; ++b)
      if (k[b] >= 0) {
        sAcc[e[b]] = acc[b];
        sFlag[e[b]] = 1;
        if (Op == Red::Mean)
          sCount[e[b]] = cnt[b];
      }
  };
  int r = 0;
  for (; r + kColumnBatch <= n; r += kColumnBatch)
    fold(r, std::integral_constant<int, kColumnBatch>{});
  for (; r < n; ++r)
    fold(r, std::integral_constant<int, 1>{});
}

/// The column walk with a thread per line: its accumulators in shared
/// memory ([axis position][line]: an accumulator, a mean's count, a flag),
/// for axes too long for a thread per position. The block's first lb
/// threads fold; all stage.
template <class T, class I>
__global__ void __launch_bounds__(kColumnThreads)
    columnSmemKernel(ColumnArgs a, const T *upd, T *out, BadIndexRecord *bad) {
  awaitUpstream();
  using C = Compute<T>;
  using V = typename BitsOf<sizeof(T)>::type;
  extern __shared__ __align__(16) unsigned char columnSmem[];
  __shared__ LineOffsets table[kColumnThreads];
  const ScatterGeom &g = a.g;
  const int lb = a.lb, tid = int(threadIdx.x);
  const int64_t len = g.len, elems = len * lb;
  int32_t *sK = reinterpret_cast<int32_t *>(columnSmem);
  V *sV = reinterpret_cast<V *>(sK + kColumnStage);
  C *sAcc = reinterpret_cast<C *>(columnSmem + columnStageBytes(sizeof(T)));
  C *sCount = sAcc + (a.op == Red::Mean ? elems : 0);
  uint8_t *sFlag = reinterpret_cast<uint8_t *>(sCount + elems);
  const int lines = columnLines(a, table);
  // Accumulators start from the data's values with include_self (count 1).
  const bool self = a.includeSelf && a.op != Red::Update;
  for (int64_t e = tid; e < elems; e += kColumnThreads) {
    int t = int(e & (lb - 1));
    int64_t k = e >> a.lbBits;
    bool on = self && t < lines;
    sFlag[e] = on;
    sAcc[e] = on ? loadElem<T>(out + table[t].out + k * g.outStride[g.axis]) : C(0);
    if (a.op == Red::Mean)
      sCount[e] = C(1);
  }
  const int rows = kColumnStage / lb;
  ColumnStage<T, I> stage{a, table, upd, lines, tid};
  stage.load(0);
  for (int64_t r0 = 0; r0 < a.lineLen; r0 += rows) {
    __syncthreads(); // The previous stretch is folded (and the accumulators set).
    stage.store(r0, sK, sV, bad);
    __syncthreads();
    if (r0 + rows < a.lineLen)
      stage.load(r0 + rows); // In flight while this stretch folds.
    if (tid >= lines)
      continue;
    const int n = int(a.lineLen - r0 < rows ? a.lineLen - r0 : rows);
    withOp(a.op, [&](auto op) {
      columnSmemFold<T, decltype(op)::value>(sK, sV, sAcc, sCount, sFlag, n, lb, tid);
    });
  }
  __syncthreads();
  for (int64_t e = tid; e < elems; e += kColumnThreads) {
    int t = int(e & (lb - 1));
    if (t >= lines || !sFlag[e])
      continue;
    Fold<T> f(a.op, false, C(0));
    f.merge(sAcc[e], a.op == Red::Mean ? sCount[e] : C(1));
    int64_t k = e >> a.lbBits;
    storeElem<T>(out + table[t].out + k * g.outStride[g.axis], f.result());
  }
  finishBadIndexCheck(bad, g);
}

template <class T, class I> int runColumn(Ctx &ctx, const Plan &p, BadIndexRecord *bad) {
  ColumnArgs a{p.g,          p.lines, p.lineLen,    p.rmAxis, 1 << p.columnBits,
               p.columnBits, p.op,    p.includeSelf};
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  int64_t blocks = (p.lines + (int64_t(1) << p.columnBits) - 1) >> p.columnBits;
  if (!p.columnSmem) {
    columnKernel<T, I><<<unsigned(blocks), kColumnThreads, 0, ctx.stream()>>>(a, upd, out, bad);
    return ctx.checkLaunch("columnKernel");
  }
  static const cudaError_t attrErr = allowDynamicSmem(columnSmemKernel<T, I>);
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  columnSmemKernel<T, I>
      <<<unsigned(blocks), kColumnThreads, p.columnSmemBytes, ctx.stream()>>>(a, upd, out, bad);
  return ctx.checkLaunch("columnSmemKernel");
}

//===----------------------------------------------------------------------===//
// The ranked walk: no sort and no chunks, so exact for every reduction and
// dtype, with every output element folded by whichever lane holds its next
// update. A block takes kMatchLines consecutive lines (adjacent columns
// when the axis is not the last, so a staged row of the 8 lines is one
// 32-byte sector of float32) and keeps an accumulator per (line, axis
// position) in shared memory. Its threads stage 256 axis positions
// of the lines at a time (loaded coalesced across lines, the next stretch
// in registers while this one folds); warp w then walks line w's stretch
// 32 rows at a time, lane l holding row l. __match_any_sync groups the
// lanes naming the same position, and each lane's rank in its group is the
// number of lower lanes (earlier rows) in it; the warp folds in rounds,
// round j the lanes of rank j, each into its own position's accumulator:
// the lanes of one round name distinct positions, and a position's updates
// come in rank order, which is index order. The rounds of a warp are
// ordered by __syncwarp, the lines of a block are disjoint, and the
// stretches are ordered by the block's barriers, so each element sees its
// updates in index order, as the CPU does. Many targets need few rounds
// (32 rows into 512 positions: one or two); few targets would need many
// (into 4: about 12). So an axis of at most 32 positions walks with a lane
// per position instead: every lane reads every staged row of its warp's
// line (a shared-memory broadcast) and folds the rows naming its position
// into registers, in row order (no rounds, no read-modify-write).
//===----------------------------------------------------------------------===//

struct MatchArgs {
  ScatterGeom g;
  int64_t lines, lineLen, rmAxis;
  Red op;
  bool includeSelf;
  /// The lines cover the output, which does not hold the data yet: every
  /// element no update folded into takes the data's value (no copy first).
  bool copyRest;
  /// Round 11's walk (GRAFT_CUDA_SCATTER_WALK=rounds, for comparison): the
  /// lanes of a group fold in rounds, and the lane walk selects twice a row.
  bool rounds;
  /// GRAFT_CUDA_SCATTER_WALK=atomic, for an axis of more than 32 positions:
  /// each lane ORs its bit into its position's mask in shared memory, which
  /// then holds the group __match_any_sync would give.
  bool atomicPeers;
  int rows; ///< Axis positions a stretch stages: 32 x (elements a thread) x split.
  /// The lane walk's lanes a line: 32, a warp a line; or 4, 8 or 16, a warp
  /// taking 32 / laneP lines (packed). At least the axis length.
  int laneP;
  /// Warps a line: 1, or 2 (kMatchLines / 2 lines a block, warp w walking
  /// line w / 2 and folding the positions k with k % 2 = w % 2; an axis of
  /// more than 32 positions).
  int split;
};

/// The ranked walk's state for an axis of at most 32 positions: lane p
/// holds position p's accumulator, a mean's count and flag in registers.
template <class T> struct LaneState {
  Compute<T> acc, cnt;
  uint8_t flag;
};

/// Folds `n` staged rows of line `w` into lane state `s` of position `lane`:
/// every lane reads every row (a broadcast) and takes the rows naming its
/// position, in row order, so no rounds and no shared-memory
/// read-modify-write.
template <class T, Red Op, class V>
__device__ inline void laneWalk(LaneState<T> &s, const int32_t *sK, const V *sV, int n, int w,
                                int lane) {
  using C = Compute<T>;
  C acc = s.acc, cnt = s.cnt;
  uint8_t flag = s.flag;
#pragma unroll 8
  for (int r = 0; r < n; ++r) {
    const int j = r * kMatchPitch + w;
    const bool hit = sK[j] == lane;
    const C v = loadElem<T>(reinterpret_cast<const T *>(sV + j));
    const C next = flag ? step<T>(Op, acc, v) : v;
    if (Op == Red::Mean)
      cnt = hit ? (flag ? roundC<T>(ops::addC(cnt, C(1))) : C(1)) : cnt;
    acc = hit ? next : acc;
    flag = hit ? uint8_t(2) : flag;
  }
  s.acc = acc;
  s.cnt = cnt;
  s.flag = flag;
}

/// The value a row that misses a lane folds in, chosen so that the step
/// leaves the accumulator's value as it is: x + -0 = x (also for x = +0),
/// x * 1 = x, a max with -inf (the type's least integer) and a min with
/// +inf (its largest) never win, bool's or with false. It is also the
/// accumulator's start where no update landed yet (no include_self): the
/// first update's step then gives that update (-0 + v = v, 1 * v = v, v
/// wins a max against -inf or ties it and -inf stays). So a row folds as
/// `acc = step(acc, hit ? v : identity)`, one step on the accumulator's
/// dependency chain, instead of the step and two selects. The GPU's
/// arithmetic on a NaN gives its canonical NaN, so a NaN stays a NaN but
/// not always with the CPU's sign and payload bits.
template <class T, Red Op> __device__ inline Compute<T> identityOf() {
  using C = Compute<T>;
  constexpr bool fp = std::is_floating_point_v<C>;
  if constexpr (Op == Red::Mul) {
    return C(1);
  } else if constexpr (Op == Red::Max || Op == Red::Min) {
    if constexpr (fp) {
      return Op == Red::Max ? C(-INFINITY) : C(INFINITY);
    } else if constexpr (std::is_same_v<C, bool>) {
      return Op == Red::Min;
    } else {
      using U = std::make_unsigned_t<C>;
      constexpr C least = std::is_signed_v<C> ? C(U(U(1) << (8 * sizeof(C) - 1))) : C(0);
      return Op == Red::Max ? least : C(~least);
    }
  } else if constexpr (fp) {
    return C(-0.0);
  } else {
    return C(0);
  }
}

/// laneWalk's fold with the step's identity (identityOf) for the rows that
/// miss: `s` starts from the accumulator set (include_self: the data's
/// value, count 1) or from the identity (count 0) where it is untouched.
template <class T, Red Op, class V>
__device__ inline void laneWalkIdentity(LaneState<T> &s, const int32_t *sK, const V *sV, int n,
                                        int w, int lane) {
  using C = Compute<T>;
  const C id = identityOf<T, Op>();
  C acc = s.acc, cnt = s.cnt;
  bool touched = false;
#pragma unroll 8
  for (int r = 0; r < n; ++r) {
    const int j = r * kMatchPitch + w;
    const bool hit = sK[j] == lane;
    const C v = loadElem<T>(reinterpret_cast<const T *>(sV + j));
    if constexpr (Op == Red::Update)
      acc = hit ? v : acc;
    else
      acc = step<T>(Op, acc, hit ? v : id);
    if constexpr (Op == Red::Mean)
      cnt = roundC<T>(ops::addC(cnt, hit ? C(1) : C(0)));
    touched |= hit;
  }
  s.acc = acc;
  s.cnt = cnt;
  s.flag = touched ? uint8_t(2) : s.flag;
}

template <class T, class I>
__global__ void __launch_bounds__(kMatchThreads)
    matchKernel(MatchArgs a, const T *upd, const T *src, T *out, BadIndexRecord *bad) {
  awaitUpstream();
  using C = Compute<T>;
  using V = typename BitsOf<sizeof(T)>::type;
  extern __shared__ __align__(16) unsigned char matchSmem[];
  // Warps a line and lines a block (powers of two), and their log2.
  const int split = a.split == 2 ? 2 : 1, splitBits = split == 2 ? 1 : 0,
            blockLines = kMatchLines >> splitBits, lineBits = 3 - splitBits;
  const int rows = a.rows, items = rows / (32 * split);
  int32_t *sK = reinterpret_cast<int32_t *>(matchSmem);
  V *sV = reinterpret_cast<V *>(sK + rows * kMatchPitch);
  unsigned char *accBase = matchSmem + matchStageBytes(sizeof(T), rows);
  LineOffsets *table =
      reinterpret_cast<LineOffsets *>(accBase - size_t(kMatchLines) * sizeof(LineOffsets));
  const ScatterGeom &g = a.g;
  const int64_t len = g.len, elems = len * blockLines, outAxis = g.outStride[g.axis];
  const bool mean = a.op == Red::Mean;
  // Accumulators [line][axis position]; flags 0 (untouched, no self), 1
  // (the data's value, include_self), 2 (folded: written back).
  C *sAcc = reinterpret_cast<C *>(accBase);
  C *sCount = sAcc + (mean ? elems : 0);
  uint8_t *sFlag = reinterpret_cast<uint8_t *>(sCount + elems);
  // With atomicPeers: a lane mask per [line][axis position], all zero
  // between chunks.
  uint32_t *sPeers = reinterpret_cast<uint32_t *>((reinterpret_cast<uintptr_t>(sFlag + elems) + 3) &
                                                  ~uintptr_t(3));
  const int tid = int(threadIdx.x), warp = tid >> 5, lane = tid & 31;
  const int64_t line0 = int64_t(blockIdx.x) * blockLines;
  const int lines = int(a.lines - line0 < blockLines ? a.lines - line0 : blockLines);
  if (tid < lines) {
    LineOffsets &l = table[tid];
    lineStart(g, line0 + tid, l.idx, l.upd, l.out, l.rm);
  }
  __syncthreads();
  // Element e: line e % blockLines, position e / blockLines (consecutive
  // threads, adjacent lines: coalesced loads and stores of the output).
  const bool self = a.includeSelf && a.op != Red::Update;
  // The data's values of kMatchSetBatch elements a thread are loaded before
  // any is stored. Set one at a time, the loop's loads and stores alternated
  // in the PTX (each in a branch, and sPeers a generic pointer that might
  // alias `src`), so each load issued after the previous element's store,
  // which waits for its load: a round trip to memory per element, 16 a
  // thread into 512 rows, before the walk starts.
  for (int64_t e0 = tid; e0 < elems; e0 += int64_t(kMatchThreads) * kMatchSetBatch) {
    C v[kMatchSetBatch];
#pragma unroll
    for (int b = 0; b < kMatchSetBatch; ++b) {
      const int64_t e = e0 + int64_t(b) * kMatchThreads;
      const int t = int(e & (blockLines - 1));
      v[b] = C(0);
      if (e < elems && self && t < lines)
        v[b] = loadElem<T>(src + table[t].out + (e >> lineBits) * outAxis);
    }
#pragma unroll
    for (int b = 0; b < kMatchSetBatch; ++b) {
      const int64_t e = e0 + int64_t(b) * kMatchThreads;
      if (e >= elems)
        break;
      const int t = int(e & (blockLines - 1));
      const int64_t at = t * len + (e >> lineBits);
      sFlag[at] = self && t < lines ? 1 : 0;
      sAcc[at] = v[b];
      if (mean)
        sCount[at] = C(1);
      if (a.atomicPeers)
        sPeers[at] = 0;
    }
  }
  const int64_t axisIdx = g.idxStride[g.axis], axisUpd = g.updStride[g.axis];
  I ks[kMatchMaxItems];
  V vs[kMatchMaxItems];
  // Stretch element e: line e % blockLines, axis position r0 + e /
  // blockLines.
  auto load = [&](int64_t r0) {
#pragma unroll
    for (int it = 0; it < kMatchMaxItems; ++it) {
      if (it >= items)
        break;
      int e = it * kMatchThreads + tid, t = e & (blockLines - 1);
      int64_t i = r0 + (e >> lineBits);
      ks[it] = I(0);
      vs[it] = 0;
      if (t < lines && i < a.lineLen) {
        ks[it] = *reinterpret_cast<const I *>(g.idx + table[t].idx + i * axisIdx);
        vs[it] = *reinterpret_cast<const V *>(upd + table[t].upd + i * axisUpd);
      }
    }
  };
  // Indices checked and made non-negative; -1 for padding and bad ones
  // (the first bad position goes to `bad`).
  auto store = [&](int64_t r0) {
#pragma unroll
    for (int it = 0; it < kMatchMaxItems; ++it) {
      if (it >= items)
        break;
      int e = it * kMatchThreads + tid, t = e & (blockLines - 1), row = e >> lineBits;
      int64_t i = r0 + row, k = int64_t(ks[it]);
      int32_t key = -1;
      if (t < lines && i < a.lineLen) {
        if (k < -len || k >= len) // Never folded; reported at the next sync.
          noteBadIndex(bad, (unsigned long long)(table[t].rm + i * a.rmAxis));
        else
          key = int32_t(k < 0 ? k + len : k);
      }
      sK[row * kMatchPitch + t] = key;
      sV[row * kMatchPitch + t] = vs[it];
    }
  };
  // Split, warp w walks line w / split and folds the positions k with
  // k % split = w % split: each element still has one folding lane, which
  // sees its updates in row order.
  const int wline = warp >> splitBits, parity = warp & (split - 1);
  C *acc = sAcc + wline * len, *cnt = sCount + wline * len;
  uint8_t *flag = sFlag + wline * len;
  // An axis of at most 32 positions walks with a lane per position: a warp
  // takes 32 / P lines of P lanes each (P = laneP: 32, a warp a line, or
  // packed, the power of two from 4 up that holds the axis, so a short axis
  // leaves fewer lanes idle and fewer warps issue the walk).
  const bool byLane = len <= 32 && split == 1;
  const int P = a.laneP >= len && (a.laneP == 4 || a.laneP == 8 || a.laneP == 16) ? a.laneP : 32;
  const int laneLine = warp * (32 / P) + lane / P, pos = lane % P;
  const bool laneOwns = laneLine < lines && pos < len;
  LaneState<T> ls{C(0), C(1), 0};
  load(0);
  for (int64_t r0 = 0; r0 < a.lineLen; r0 += rows) {
    __syncthreads(); // The previous stretch is folded (and the accumulators set).
    store(r0);
    __syncthreads();
    if (r0 + rows < a.lineLen)
      load(r0 + rows); // In flight while this stretch folds.
    const int n = int(a.lineLen - r0 < rows ? a.lineLen - r0 : rows);
    if (byLane) {
      if (warp * (32 / P) >= lines)
        continue;
      const int64_t at = laneLine * len + pos;
      if (r0 == 0 && laneOwns) // The accumulators are set (the barrier above).
        ls = LaneState<T>{sAcc[at], mean ? sCount[at] : C(1), sFlag[at]};
      // Lanes past the block's lines read a line of -1 (never a hit).
      withOp(a.op, [&](auto op) {
        constexpr Red Op = decltype(op)::value;
        if (a.rounds) {
          laneWalk<T, Op>(ls, sK, sV, n, laneLine, pos);
          return;
        }
        if (r0 == 0 && !ls.flag) { // Untouched: the identity, no count.
          ls.acc = identityOf<T, Op>();
          ls.cnt = C(0);
        }
        laneWalkIdentity<T, Op>(ls, sK, sV, n, laneLine, pos);
      });
      continue;
    }
    if (wline >= lines)
      continue;
    // A key this warp does not fold (another warp's of the line, split)
    // reads as -1, as padding does.
    auto owned = [&](int32_t k) { return (k & (split - 1)) == parity ? k : int32_t(-1); };
    // The group's first lane (its earliest row) folds the whole group in
    // lane order, that is row order, reading the others' updates from the
    // stage; the groups of a chunk name distinct positions.
    auto foldGroup = [&](int c, int32_t k, unsigned peers) {
      if (k < 0 || (peers & ((1u << lane) - 1)) != 0)
        return;
      uint8_t f = flag[k];
      C cur = acc[k], cc = mean ? cnt[k] : C(0);
      for (unsigned m = peers; m; m &= m - 1) {
        const int row = c + __ffs(m) - 1;
        const C v = loadElem<T>(reinterpret_cast<const T *>(sV + row * kMatchPitch + wline));
        cur = f ? step<T>(a.op, cur, v) : v;
        if (mean)
          cc = f ? roundC<T>(ops::addC(cc, C(1))) : C(1);
        f = 2;
      }
      acc[k] = cur;
      if (mean)
        cnt[k] = cc;
      flag[k] = 2;
    };
    // The groups of kMatchBatch chunks first (they do not depend on the
    // accumulators, so their __match_any_sync calls overlap), then their
    // folds in chunk order. Rows past the line hold -1.
    for (int c0 = 0; c0 < n && !a.rounds && !a.atomicPeers; c0 += 32 * kMatchBatch) {
      int32_t keys[kMatchBatch];
      unsigned groups[kMatchBatch];
#pragma unroll
      for (int b = 0; b < kMatchBatch; ++b) {
        const int c = c0 + 32 * b; // Uniform across the warp.
        keys[b] = c < n ? owned(sK[(c + lane) * kMatchPitch + wline]) : -1;
        groups[b] = c < n ? __match_any_sync(0xffffffffu, keys[b]) : 0u;
      }
#pragma unroll
      for (int b = 0; b < kMatchBatch; ++b) {
        if (c0 + 32 * b >= n)
          break;
        foldGroup(c0 + 32 * b, keys[b], groups[b]);
        __syncwarp(); // This chunk's writes before the next chunk's reads.
      }
    }
    // GRAFT_CUDA_SCATTER_WALK=atomic: the groups from shared-memory masks.
    uint32_t *peersOf = sPeers + wline * len;
    for (int c = 0; c < n && !a.rounds && a.atomicPeers; c += 32) {
      const int32_t k = owned(sK[(c + lane) * kMatchPitch + wline]);
      if (k >= 0) // Only lanes with k >= 0 take part.
        atomicOr(peersOf + k, 1u << lane);
      __syncwarp();
      const unsigned peers = k >= 0 ? peersOf[k] : 0u;
      __syncwarp(); // Every lane has its mask before the first lane clears it.
      if (k >= 0 && (peers & ((1u << lane) - 1)) == 0)
        peersOf[k] = 0;
      foldGroup(c, k, peers);
      __syncwarp(); // This chunk's writes before the next chunk's reads.
    }
    // The walk of round 11 (GRAFT_CUDA_SCATTER_WALK=rounds): the lanes of
    // rank j fold in round j, each its own update.
    for (int c = 0; c < n && a.rounds; c += 32) {
      const int j = (c + lane) * kMatchPitch + wline;
      const int32_t k = owned(sK[j]); // Rows past the line hold -1.
      const C v = loadElem<T>(reinterpret_cast<const T *>(sV + j));
      const unsigned peers = __match_any_sync(0xffffffffu, k);
      const int rank = __popc(peers & ((1u << lane) - 1));
      for (int round = 0;; ++round) {
        if (k >= 0 && rank == round) {
          uint8_t f = flag[k];
          C cur = acc[k];
          acc[k] = f ? step<T>(a.op, cur, v) : v;
          if (mean)
            cnt[k] = f ? roundC<T>(ops::addC(cnt[k], C(1))) : C(1);
          flag[k] = 2;
        }
        __syncwarp(); // This round's writes before the next round's reads.
        if (!__any_sync(0xffffffffu, k >= 0 && rank > round))
          break;
      }
    }
  }
  if (byLane && laneOwns) {
    const int64_t at = laneLine * len + pos;
    sAcc[at] = ls.acc;
    if (mean)
      sCount[at] = ls.cnt;
    sFlag[at] = ls.flag;
  }
  __syncthreads();
  for (int64_t e = tid; e < elems; e += kMatchThreads) {
    int t = int(e & (blockLines - 1));
    int64_t k = e >> lineBits, at = t * len + k;
    if (t >= lines)
      continue;
    const int64_t o = table[t].out + k * outAxis;
    if (sFlag[at] == 2) {
      Fold<T> f(a.op, false, C(0));
      f.merge(sAcc[at], mean ? sCount[at] : C(1));
      storeElem<T>(out + o, f.result());
    } else if (a.copyRest) {
      out[o] = src[o];
    }
  }
  finishBadIndexCheck(bad, g);
}

template <class T, class I>
int runMatch(Ctx &ctx, const Plan &p, const T *src, bool copyRest, BadIndexRecord *bad) {
  MatchArgs a{p.g,      p.lines,       p.lineLen,     p.rmAxis,    p.op,         p.includeSelf,
              copyRest, p.matchRounds, p.matchAtomic, p.matchRows, p.matchLaneP, p.matchSplit};
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  const int64_t blockLines = kMatchLines / p.matchSplit;
  int64_t blocks = (p.lines + blockLines - 1) / blockLines;
  static const cudaError_t attrErr = allowDynamicSmem(matchKernel<T, I>);
  if (attrErr != cudaSuccess)
    return ctx.failCuda("cudaFuncSetAttribute", attrErr);
  matchKernel<T, I>
      <<<unsigned(blocks), kMatchThreads, p.matchSmemBytes, ctx.stream()>>>(a, upd, src, out, bad);
  return ctx.checkLaunch("matchKernel");
}

template <class T, class K>
int run(Ctx &ctx, const Plan &p, const Layout &l, char *base, BadIndexRecord *bad) {
  cudaStream_t s = ctx.stream();
  auto *keysIn = reinterpret_cast<K *>(base + l.keysIn);
  auto *keysOut = reinterpret_cast<K *>(base + l.keysOut);
  auto *valsIn = reinterpret_cast<K *>(base + l.valsIn);
  auto *valsOut = reinterpret_cast<K *>(base + l.valsOut);
  if (p.byLines)
    return runLines<T, K>(ctx, p, l, base, bad);
  keysKernel<K><<<gridFor(p.updates, kScatterThreads), kScatterThreads, 0, s>>>(
      p.g, p.updates, K(p.targets), keysIn, valsIn, bad);
  if (int rc = ctx.checkLaunch("keysKernel"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e =
      sortPairs<K>(base + l.temp, tempBytes, p, keysIn, keysOut, valsIn, valsOut, nullptr, s);
  if (e)
    return ctx.failCuda("cub::DeviceRadixSort::SortPairs", e);
  auto *upd = reinterpret_cast<const T *>(dataOf(ctx.in(2)));
  auto *out = reinterpret_cast<T *>(dataOf(ctx.out(0)));
  // Long runs (many updates per element) fold a warp per element.
  if (p.updates >= 32 * p.targets) {
    int64_t threads = p.targets * 32;
    foldWarpKernel<T, K><<<gridFor(threads, kScatterThreads), kScatterThreads, 0, s>>>(
        keysOut, valsOut, p.updates, p.targets, p.op, p.includeSelf, upd, out);
    return ctx.checkLaunch("foldWarpKernel");
  }
  foldThreadKernel<T, K><<<gridFor(p.targets, kScatterThreads), kScatterThreads, 0, s>>>(
      keysOut, valsOut, p.updates, p.targets, p.op, p.includeSelf, upd, out);
  return ctx.checkLaunch("foldThreadKernel");
}

int scatterElements(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.scatter_elements", err);
  if (ctx.checkArity(3, 1))
    return 1;
  Plan p;
  if (!plan(ctx, p))
    return 1;
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  Layout l;
  if (p.updates && !layoutFor(p, ctx.stream(), l))
    return ctx.fail("cub::DeviceRadixSort: cannot size its temporary storage");
  if (ctx.args().workspaceBytes < l.total)
    return ctx.fail("needs a workspace of " + std::to_string(l.total) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  char *base = alignedBase(ctx.args().workspace);
  // The walks that write every element of their lines also copy the data
  // there, in the same pass, when their lines cover the output (no copy
  // of the data first).
  const bool inPlace = dataOf(out) == dataOf(data);
  const bool copyRest = !inPlace && p.updates && p.targets && (p.match || p.owner) &&
                        p.coversOutput && isCompact(data);
  if (!inPlace && !copyRest)
    if (int rc = copyView(ctx, out, data))
      return rc;
  if (p.updates == 0 || p.targets == 0)
    return 0;
  // The index check is read back at the next synchronization point
  // (DeferredCheck.cu), not here: no wait for the device in the call.
  BadIndexRecord *bad = nullptr;
  if (int rc = takeBadIndexRecord(ctx,
                                  " is out of range for axis " + std::to_string(p.g.axis) +
                                      " of size " + std::to_string(p.g.len),
                                  bad))
    return rc;
  return dispatch(scalarTypeOf(data.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    const T *src = reinterpret_cast<const T *>(dataOf(copyRest ? data : out));
    const bool i32 = p.g.idxType == ScalarType::Int32;
    if (p.owner)
      return i32 ? runOwner<T, int32_t>(ctx, p, l, base, src, copyRest, bad)
                 : runOwner<T, int64_t>(ctx, p, l, base, src, copyRest, bad);
    if (p.column)
      return i32 ? runColumn<T, int32_t>(ctx, p, bad) : runColumn<T, int64_t>(ctx, p, bad);
    if (p.match)
      return i32 ? runMatch<T, int32_t>(ctx, p, src, copyRest, bad)
                 : runMatch<T, int64_t>(ctx, p, src, copyRest, bad);
    if (p.tiled)
      return runTiles<T>(ctx, p, bad);
    return p.wide ? run<T, uint64_t>(ctx, p, l, base, bad) : run<T, uint32_t>(ctx, p, l, base, bad);
  });
}

const char *const kScatterAttrs[] = {"axis", "reduction", "include_self"};

} // namespace

void addScatterKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back(
      {"graft.scatter_elements", 3, 1, kScatterAttrs, 3, scatterElements, scatterWorkspace});
}

} // namespace graft::cuda
