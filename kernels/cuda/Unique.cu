//===- kernels/cuda/Unique.cu - unique: the distinct values or slices -----===//
//
// graft.host.unique_count and graft.host.unique with the CPU kernels'
// semantics (kernels/cpu/Unique.cpp): items are x's elements in row-major
// order (no axis) or its slices along the axis; groups of equal items come
// out ascending, or by first occurrence when not sorted.
//
// Each element becomes an order-preserving uint64 key (ints with the sign
// bit flipped, floats widened to double with NaN the largest key and -0.0
// the key of +0.0), so equal keys are the CPU's equal values. The item
// positions are sorted by (key, position): cub's radix sort (stable) over
// one key per item, cub's stable merge sort comparing the keys of two
// slices lexicographically otherwise. An item that differs from its
// predecessor starts a group. The count kernel sums those flags into a 0-d
// int64 on the device (the VM reads it back, vm/HostKernels.cpp); the fill
// kernel takes the number of groups from its first output's shape, scans
// the flags into group numbers, finds each group's start and first
// occurrence, orders the groups by first occurrence with a radix sort when
// not sorted, and writes values (the first occurrence's bits), index,
// inverse and counts. Both kernels recompute the sort: the count read
// between them is the host round trip of every graft.host.* form.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <algorithm>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

namespace graft::cuda {
namespace {

constexpr int kThreads = 256;
enum UniqueAttr : int { kSorted, kReturnIndex, kReturnInverse, kReturnCounts, kAxis };

/// x as `n` items of `m` elements; `it` visits the elements item after
/// item (the axis first), in bytes.
struct Items {
  Indexer<1> it;
  int64_t n = 0, m = 1;
  bool byAxis = false;
  int axis = 0;
};

/// A byte indexer of `t` with dim `first` outermost (none when < 0).
Indexer<1> itemIndexer(const DLTensor &t, int first) {
  int64_t strides[kMaxDims];
  elementStrides(t, strides);
  Indexer<1> it;
  it.ndim = t.ndim;
  int k = 0;
  auto put = [&](int d) {
    it.shape[k] = t.shape[d];
    it.stride[0][k++] = strides[d] * ((t.dtype.bits + 7) / 8);
  };
  if (first >= 0)
    put(first);
  for (int d = 0; d < t.ndim; ++d)
    if (d != first)
      put(d);
  return it;
}

/// The items of input 0 (`axisAttr`: the axis attribute's index); false
/// after ctx.fail.
bool itemsOf(Ctx &ctx, int axisAttr, Items &items) {
  const DLTensor &x = ctx.in(0);
  if (!ctx.hasAttr(axisAttr)) {
    items.n = numel(x);
    items.it = itemIndexer(x, -1);
    return true;
  }
  int64_t a = 0;
  if (!ctx.intAttr(axisAttr, "axis", 0, a))
    return false;
  if (x.ndim == 0) {
    ctx.fail("axis " + std::to_string(a) + " given for a 0-d input");
    return false;
  }
  if (a < -x.ndim || a >= x.ndim) {
    ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(x.ndim));
    return false;
  }
  items.axis = int(a < 0 ? a + x.ndim : a);
  items.byAxis = true;
  items.n = x.shape[items.axis];
  for (int d = 0; d < x.ndim; ++d)
    if (d != items.axis)
      items.m *= x.shape[d];
  items.it = itemIndexer(x, items.axis);
  return true;
}

/// Comparing keys orders as the CPU's compareValues.
__device__ uint64_t keyOf(const char *p, ScalarType t) {
  constexpr uint64_t sign = 1ull << 63;
  if (t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
      t == ScalarType::Float64) {
    double v = loadAs<double>(p, t);
    if (v != v)
      return ~0ull;
    if (v == 0)
      v = 0.0; // -0.0 is +0.0.
    uint64_t b = uint64_t(__double_as_longlong(v));
    return (b & sign) ? ~b : (b | sign);
  }
  return uint64_t(loadAs<int64_t>(p, t)) ^ sign;
}

__global__ void itemKeys(Indexer<1> it, const char *x, ScalarType t, int64_t total,
                         uint64_t *keys) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t off[1];
    it.offsets(i, off);
    keys[i] = keyOf(x + off[0], t);
  }
}

__global__ void iota(int64_t *v, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    v[i] = i;
}

/// Slices a and b (item numbers) in lexicographic key order.
struct SliceLess {
  const uint64_t *keys;
  int64_t m;
  __device__ bool operator()(int64_t a, int64_t b) const {
    for (int64_t j = 0; j < m; ++j) {
      uint64_t ka = keys[a * m + j], kb = keys[b * m + j];
      if (ka != kb)
        return ka < kb;
    }
    return false;
  }
};

/// flags[i] = sorted item i starts a group.
__global__ void groupFlags(const uint64_t *keys, int64_t m, const int64_t *order, int64_t n,
                           int64_t *flags) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    bool starts = i == 0;
    if (!starts) {
      const uint64_t *a = keys + order[i - 1] * m, *b = keys + order[i] * m;
      for (int64_t j = 0; j < m && !starts; ++j)
        starts = a[j] != b[j];
    }
    flags[i] = starts ? 1 : 0;
  }
}

/// Group g (of u) starts at sorted position starts[g]; first[g] is its
/// first occurrence; starts[u] = n.
__global__ void groupStarts(const int64_t *flags, const int64_t *groupEnd, const int64_t *order,
                            int64_t n, int64_t u, int64_t *starts, int64_t *first) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (i == 0)
      starts[u] = n;
    if (!flags[i])
      continue;
    int64_t g = groupEnd[i] - 1;
    starts[g] = i;
    first[g] = order[i];
  }
}

/// rankOf[byRank[r]] = r.
__global__ void invertRanks(const int64_t *byRank, int64_t u, int64_t *rankOf) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < u; r += stride)
    rankOf[byRank[r]] = r;
}

/// Element j of output item r is element j of the first occurrence of
/// group byRank[r] (identity when byRank is null), bits copied.
__global__ void writeValues(Indexer<1> src, Indexer<1> dst, const char *x, char *out, int bytes,
                            const int64_t *first, const int64_t *byRank, int64_t u, int64_t m) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < u * m; i += stride) {
    int64_t r = i / m, j = i - r * m;
    int64_t item = first[byRank ? byRank[r] : r];
    int64_t so[1], d[1];
    src.offsets(item * m + j, so);
    dst.offsets(i, d);
    for (int b = 0; b < bytes; ++b)
      out[d[0] + b] = x[so[0] + b];
  }
}

/// index[r] and counts[r] (either may be null) of group byRank[r].
__global__ void writeIndexCounts(const int64_t *first, const int64_t *starts, const int64_t *byRank,
                                 int64_t u, char *index, int64_t indexStride, char *counts,
                                 int64_t countsStride) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < u; r += stride) {
    int64_t g = byRank ? byRank[r] : r;
    if (index)
      *reinterpret_cast<int64_t *>(index + r * indexStride) = first[g];
    if (counts)
      *reinterpret_cast<int64_t *>(counts + r * countsStride) = starts[g + 1] - starts[g];
  }
}

/// inverse[item] = the output position of its group.
__global__ void writeInverse(const int64_t *order, const int64_t *groupEnd, const int64_t *rankOf,
                             int64_t n, char *inverse, int64_t inverseStride) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t g = groupEnd[i] - 1;
    *reinterpret_cast<int64_t *>(inverse + order[i] * inverseStride) = rankOf ? rankOf[g] : g;
  }
}

/// Workspace offsets for n items of m elements; `fill`: the fill kernel's
/// extra arrays.
struct Layout {
  size_t keys = 0, sortedKeys = 0, positions = 0, order = 0, flags = 0, groupEnd = 0, starts = 0,
         first = 0, sortedFirst = 0, groups = 0, byRank = 0, rankOf = 0, temp = 0, tempBytes = 0,
         total = 0;
};

bool layoutFor(const Items &items, bool fill, cudaStream_t s, Layout &l) {
  int64_t n = items.n;
  auto *i64 = static_cast<int64_t *>(nullptr);
  auto *u64 = static_cast<uint64_t *>(nullptr);
  size_t bytes = 0;
  auto grow = [&](cudaError_t e) {
    l.tempBytes = std::max(l.tempBytes, bytes);
    return e == cudaSuccess;
  };
  bool ok =
      items.m == 1
          ? grow(cub::DeviceRadixSort::SortPairs(nullptr, bytes, u64, u64, i64, i64, n, 0, 64, s))
          : grow(cub::DeviceMergeSort::StableSortKeys(nullptr, bytes, i64, n,
                                                      SliceLess{nullptr, items.m}, s));
  ok = ok && grow(cub::DeviceReduce::Sum(nullptr, bytes, i64, i64, n, s)) &&
       grow(cub::DeviceScan::InclusiveSum(nullptr, bytes, i64, i64, n, s)) &&
       grow(cub::DeviceRadixSort::SortPairs(nullptr, bytes, i64, i64, i64, i64, n, 0, 64, s));
  if (!ok)
    return false;
  WorkspaceCarver c;
  size_t items8 = size_t(n) * 8;
  l.keys = c.take(size_t(n * items.m) * 8);
  l.sortedKeys = c.take(items.m == 1 ? items8 : 0);
  l.positions = c.take(items8);
  l.order = c.take(items8);
  l.flags = c.take(items8);
  if (fill) {
    l.groupEnd = c.take(items8);
    l.starts = c.take(items8 + 8);
    l.first = c.take(items8);
    l.sortedFirst = c.take(items8);
    l.groups = c.take(items8);
    l.byRank = c.take(items8);
    l.rankOf = c.take(items8);
  }
  l.temp = c.take(l.tempBytes);
  l.total = c.total();
  return true;
}

/// Keys, sorted order and group flags of the items, in the workspace.
int sortAndFlag(Ctx &ctx, const Items &items, char *base, const Layout &l) {
  cudaStream_t s = ctx.stream();
  int64_t n = items.n, total = n * items.m;
  auto *keys = reinterpret_cast<uint64_t *>(base + l.keys);
  auto *positions = reinterpret_cast<int64_t *>(base + l.positions);
  auto *order = reinterpret_cast<int64_t *>(base + l.order);
  const DLTensor &x = ctx.in(0);
  if (total > 0) {
    itemKeys<<<gridFor(total, kThreads), kThreads, 0, s>>>(items.it, dataOf(x),
                                                           scalarTypeOf(x.dtype), total, keys);
    if (int rc = ctx.checkLaunch("itemKeys"))
      return rc;
  }
  iota<<<gridFor(n, kThreads), kThreads, 0, s>>>(positions, n);
  if (int rc = ctx.checkLaunch("iota"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e;
  if (items.m == 1) {
    e = cub::DeviceRadixSort::SortPairs(base + l.temp, tempBytes, keys,
                                        reinterpret_cast<uint64_t *>(base + l.sortedKeys),
                                        positions, order, n, 0, 64, s);
  } else {
    e = cudaMemcpyAsync(order, positions, size_t(n) * 8, cudaMemcpyDeviceToDevice, s);
    if (e == cudaSuccess)
      e = cub::DeviceMergeSort::StableSortKeys(base + l.temp, tempBytes, order, n,
                                               SliceLess{keys, items.m}, s);
  }
  if (e != cudaSuccess)
    return ctx.failCuda("cub sort", e);
  groupFlags<<<gridFor(n, kThreads), kThreads, 0, s>>>(keys, items.m, order, n,
                                                       reinterpret_cast<int64_t *>(base + l.flags));
  return ctx.checkLaunch("groupFlags");
}

int needWorkspace(Ctx &ctx, size_t bytes) {
  if (ctx.args().workspaceBytes < bytes)
    return ctx.fail("needs a workspace of " + std::to_string(bytes) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  return 0;
}

template <bool Fill> size_t uniqueWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  Items items;
  Layout l;
  if (!itemsOf(ctx, Fill ? kAxis : 0, items) || items.n == 0 ||
      !layoutFor(items, Fill, ctx.stream(), l))
    return 0;
  return l.total;
}

int uniqueCount(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.host.unique_count", err);
  if (ctx.checkArity(1, 1))
    return 1;
  Items items;
  if (!itemsOf(ctx, 0, items))
    return 1;
  const DLTensor &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != ScalarType::Int64 || out.ndim != 0)
    return ctx.fail("output 0 must be a 0-d int64, got " + dtypeName(out.dtype) + " " +
                    shapeStr(out));
  cudaStream_t s = ctx.stream();
  auto *count = reinterpret_cast<int64_t *>(dataOf(out));
  if (items.n == 0) {
    cudaError_t e = cudaMemsetAsync(count, 0, 8, s);
    return e ? ctx.failCuda("cudaMemsetAsync", e) : 0;
  }
  Layout l;
  if (!layoutFor(items, false, s, l))
    return ctx.fail("cub's workspace query failed");
  if (int rc = needWorkspace(ctx, l.total))
    return rc;
  char *base = alignedBase(ctx.args().workspace);
  if (int rc = sortAndFlag(ctx, items, base, l))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e = cub::DeviceReduce::Sum(
      base + l.temp, tempBytes, reinterpret_cast<int64_t *>(base + l.flags), count, items.n, s);
  return e ? ctx.failCuda("cub::DeviceReduce::Sum", e) : 0;
}

/// The byte stride of a 1-d int64 output.
int64_t int64Stride(const DLTensor &t) {
  int64_t strides[kMaxDims];
  elementStrides(t, strides);
  return strides[0] * 8;
}

/// Checks output `i`: int64, 1-d of `length`.
int checkIntOutput(Ctx &ctx, int i, int64_t length) {
  const DLTensor &t = ctx.out(i);
  if (scalarTypeOf(t.dtype) != ScalarType::Int64)
    return ctx.fail("output " + std::to_string(i) + " has dtype " + dtypeName(t.dtype) +
                    ", expected int64");
  if (t.ndim != 1 || t.shape[0] != length)
    return ctx.fail("output " + std::to_string(i) + " has shape " + shapeStr(t) + ", expected [" +
                    std::to_string(length) + "]");
  return 0;
}

int unique(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.host.unique", err);
  if (ctx.checkArity(1, -1))
    return 1;
  bool sorted = true, wants[3] = {false, false, false};
  if (!ctx.boolAttr(kSorted, "sorted", true, sorted) ||
      !ctx.boolAttr(kReturnIndex, "return_index", false, wants[0]) ||
      !ctx.boolAttr(kReturnInverse, "return_inverse", false, wants[1]) ||
      !ctx.boolAttr(kReturnCounts, "return_counts", false, wants[2]))
    return 1;
  Items items;
  if (!itemsOf(ctx, kAxis, items))
    return 1;
  int numOutputs = 1 + int(wants[0]) + int(wants[1]) + int(wants[2]);
  if (ctx.numOutputs() != numOutputs)
    return ctx.fail("the return flags ask for " + std::to_string(numOutputs) + " outputs, got " +
                    std::to_string(ctx.numOutputs()));
  const DLTensor &x = ctx.in(0), &values = ctx.out(0);
  // The number of groups is the one the count kernel wrote: the values' size.
  bool shapeOk = values.ndim == (items.byAxis ? x.ndim : 1);
  int64_t u = shapeOk ? values.shape[items.byAxis ? items.axis : 0] : 0;
  for (int d = 0; shapeOk && items.byAxis && d < x.ndim; ++d)
    shapeOk = d == items.axis || values.shape[d] == x.shape[d];
  if (!shapeOk || u > items.n || (u == 0) != (items.n == 0))
    return ctx.fail("output 0 has shape " + shapeStr(values) + ", which no count of " +
                    std::to_string(items.n) + " items gives");
  if (values.dtype.code != x.dtype.code || values.dtype.bits != x.dtype.bits)
    return ctx.fail("output 0 has dtype " + dtypeName(values.dtype) + ", expected " +
                    dtypeName(x.dtype));
  int64_t lengths[3] = {u, items.n, u};
  const DLTensor *ints[3] = {nullptr, nullptr, nullptr};
  for (int k = 0, next = 1; k < 3; ++k) {
    if (!wants[k])
      continue;
    if (int rc = checkIntOutput(ctx, next, lengths[k]))
      return rc;
    ints[k] = &ctx.out(next++);
  }
  if (items.n == 0)
    return 0;

  cudaStream_t s = ctx.stream();
  Layout l;
  if (!layoutFor(items, true, s, l))
    return ctx.fail("cub's workspace query failed");
  if (int rc = needWorkspace(ctx, l.total))
    return rc;
  char *base = alignedBase(ctx.args().workspace);
  if (int rc = sortAndFlag(ctx, items, base, l))
    return rc;
  auto at = [&](size_t off) { return reinterpret_cast<int64_t *>(base + off); };
  int64_t n = items.n;
  size_t tempBytes = l.tempBytes;
  cudaError_t e =
      cub::DeviceScan::InclusiveSum(base + l.temp, tempBytes, at(l.flags), at(l.groupEnd), n, s);
  if (e)
    return ctx.failCuda("cub::DeviceScan::InclusiveSum", e);
  groupStarts<<<gridFor(n, kThreads), kThreads, 0, s>>>(at(l.flags), at(l.groupEnd), at(l.order), n,
                                                        u, at(l.starts), at(l.first));
  if (int rc = ctx.checkLaunch("groupStarts"))
    return rc;
  const int64_t *byRank = nullptr, *rankOf = nullptr;
  if (!sorted) {
    iota<<<gridFor(u, kThreads), kThreads, 0, s>>>(at(l.groups), u);
    if (int rc = ctx.checkLaunch("iota"))
      return rc;
    tempBytes = l.tempBytes;
    e = cub::DeviceRadixSort::SortPairs(base + l.temp, tempBytes, at(l.first), at(l.sortedFirst),
                                        at(l.groups), at(l.byRank), u, 0, 64, s);
    if (e)
      return ctx.failCuda("cub::DeviceRadixSort::SortPairs", e);
    invertRanks<<<gridFor(u, kThreads), kThreads, 0, s>>>(at(l.byRank), u, at(l.rankOf));
    if (int rc = ctx.checkLaunch("invertRanks"))
      return rc;
    byRank = at(l.byRank);
    rankOf = at(l.rankOf);
  }
  if (u * items.m > 0) {
    writeValues<<<gridFor(u * items.m, kThreads), kThreads, 0, s>>>(
        items.it, itemIndexer(values, items.byAxis ? items.axis : -1), dataOf(x), dataOf(values),
        (x.dtype.bits + 7) / 8, at(l.first), byRank, u, items.m);
    if (int rc = ctx.checkLaunch("writeValues"))
      return rc;
  }
  if (ints[0] || ints[2]) {
    writeIndexCounts<<<gridFor(u, kThreads), kThreads, 0, s>>>(
        at(l.first), at(l.starts), byRank, u, ints[0] ? dataOf(*ints[0]) : nullptr,
        ints[0] ? int64Stride(*ints[0]) : 0, ints[2] ? dataOf(*ints[2]) : nullptr,
        ints[2] ? int64Stride(*ints[2]) : 0);
    if (int rc = ctx.checkLaunch("writeIndexCounts"))
      return rc;
  }
  if (ints[1]) {
    writeInverse<<<gridFor(n, kThreads), kThreads, 0, s>>>(at(l.order), at(l.groupEnd), rankOf, n,
                                                           dataOf(*ints[1]), int64Stride(*ints[1]));
    return ctx.checkLaunch("writeInverse");
  }
  return 0;
}

const char *const kUniqueAttrs[] = {"sorted", "return_index", "return_inverse", "return_counts",
                                    "axis"};
const char *const kUniqueCountAttrs[] = {"axis"};

} // namespace

void addUniqueKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back(
      {"graft.host.unique_count", 1, 1, kUniqueCountAttrs, 1, uniqueCount, uniqueWorkspace<false>});
  out.push_back({"graft.host.unique", 1, -1, kUniqueAttrs, 5, unique, uniqueWorkspace<true>});
}

} // namespace graft::cuda
