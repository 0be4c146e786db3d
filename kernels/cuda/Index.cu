//===- kernels/cuda/Index.cu - index_tensor, index_put, masks, nonzero, take -===//
//
// Advanced indexing with the CPU kernels' semantics (kernels/cpu/Index.cpp):
// integer index tensors broadcast together select rows of the leading dims
// of the data; a bool mask over the leading dims selects its true
// positions in row-major order.
//
// - A mask's positions come from an exclusive scan of its flags
//   (cub::DeviceScan): position p is true and lands in row scan[p]. The
//   count kernels (graft.host.*_count) write the number of true elements
//   into a 0-d int64 on the device; the VM reads it and sizes the fill
//   kernel's output (vm/HostKernels.cpp).
// - index_put without accumulate: the last write in index order wins, so
//   each target row first takes the largest index position that names it
//   (an integer atomicMax: the same result in every run), and only that
//   position writes.
// - index_put with accumulate: (target row, position) pairs are sorted by
//   row with cub's stable radix sort, and one thread per row and element
//   adds its values in index order, starting from the data: the CPU
//   kernel's order, so float results are the CPU's bits (half types
//   accumulate in float and round once).
// - Index values are checked before anything is written, as on the CPU:
//   a check kernel finds the first out-of-range value and the host reads
//   it back. While the stream is being captured into a CUDA graph no host
//   read is possible; the check is skipped and out-of-range positions are
//   skipped by the kernels (never an out-of-bounds access).
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/ElementwiseOps.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

namespace graft::cuda {

//===----------------------------------------------------------------------===//
// Shared helpers (Common.cuh)
//===----------------------------------------------------------------------===//

namespace {

constexpr int kIndexThreads = 256;
constexpr uint64_t kPosMask = (uint64_t(1) << 56) - 1;

__global__ void badIndexKernel(Indexer<1> it, const char *p, ScalarType t, int64_t count, int64_t n,
                               unsigned long long tag, unsigned long long *slot) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    int64_t off[1];
    it.offsets(i, off);
    int64_t v = loadAs<int64_t>(p + off[0], t);
    if (v < -n || v >= n)
      atomicMin(slot, tag | (unsigned long long)i);
  }
}

int64_t hostIntAt(const char *bytes, ScalarType t) {
  switch (t) {
  case ScalarType::Int8:
    return *reinterpret_cast<const int8_t *>(bytes);
  case ScalarType::Int16:
    return *reinterpret_cast<const int16_t *>(bytes);
  case ScalarType::Int32:
    return *reinterpret_cast<const int32_t *>(bytes);
  case ScalarType::UInt8:
  case ScalarType::Bool:
    return *reinterpret_cast<const uint8_t *>(bytes);
  default:
    return *reinterpret_cast<const int64_t *>(bytes);
  }
}

} // namespace

bool streamCapturing(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &status) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return status != cudaStreamCaptureStatusNone;
}

int findBadIndex(Ctx &ctx, const IndexRange *ranges, int num, void *slot, BadIndex &bad) {
  bad.found = false;
  cudaStream_t s = ctx.stream();
  if (num == 0 || streamCapturing(s))
    return 0;
  auto *key = static_cast<unsigned long long *>(slot);
  cudaError_t e = cudaMemsetAsync(key, 0xff, sizeof *key, s);
  if (e)
    return ctx.failCuda("cudaMemsetAsync", e);
  for (int j = 0; j < num; ++j) {
    const DLTensor &t = *ranges[j].t;
    int64_t count = numel(t);
    if (count == 0)
      continue;
    Indexer<1> it;
    it.ndim = t.ndim;
    elementStrides(t, it.stride[0]);
    for (int d = 0; d < t.ndim; ++d) {
      it.shape[d] = t.shape[d];
      it.stride[0][d] *= (t.dtype.bits + 7) / 8;
    }
    badIndexKernel<<<gridFor(count, kIndexThreads), kIndexThreads, 0, s>>>(
        it, dataOf(t), scalarTypeOf(t.dtype), count, ranges[j].n, (unsigned long long)j << 56, key);
    if (int rc = ctx.checkLaunch("badIndexKernel"))
      return rc;
  }
  unsigned long long found = 0;
  if (int rc = ctx.hostRead("the index check"))
    return rc;
  e = cudaMemcpyAsync(&found, key, sizeof found, cudaMemcpyDeviceToHost, s);
  if (!e)
    e = cudaStreamSynchronize(s);
  if (e)
    return ctx.failCuda("reading the index check back", e);
  if (found == ~0ull)
    return 0;
  bad.found = true;
  bad.which = int(found >> 56);
  const DLTensor &t = *ranges[bad.which].t;
  // The row-major position back to the element's address.
  int64_t pos = int64_t(found & kPosMask), strides[kMaxDims], off = 0;
  elementStrides(t, strides);
  for (int d = t.ndim - 1; d >= 0; --d) {
    off += (pos % t.shape[d]) * strides[d];
    pos /= t.shape[d];
  }
  int64_t bytes = (t.dtype.bits + 7) / 8;
  char value[8] = {};
  e = cudaMemcpy(value, dataOf(t) + off * bytes, size_t(bytes), cudaMemcpyDeviceToHost);
  if (e)
    return ctx.failCuda("reading the bad index back", e);
  bad.value = hostIntAt(value, scalarTypeOf(t.dtype));
  return 0;
}

bool broadcastStrides(Ctx &ctx, const DLTensor &v, const std::vector<int64_t> &shape,
                      int64_t *strides, const char *role) {
  int nd = int(shape.size());
  bool ok = v.ndim <= nd;
  int64_t own[kMaxDims];
  elementStrides(v, own);
  int64_t bytes = (v.dtype.bits + 7) / 8;
  for (int d = 0; ok && d < nd; ++d) {
    int vd = d - (nd - v.ndim);
    if (vd < 0) {
      strides[d] = 0;
      continue;
    }
    int64_t s = v.shape[vd];
    ok = s == shape[d] || s == 1;
    strides[d] = s == 1 ? 0 : own[vd] * bytes;
  }
  if (!ok)
    ctx.fail(std::string(role) + " of shape " + shapeStr(v) + " cannot broadcast to " +
             shapeStr(shape.data(), nd));
  return ok;
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

namespace {

/// Integer index tensors broadcast to the lead shape: each lead position
/// names a row of the data's leading k dims.
struct IndexSet {
  int k = 0;
  Indexer<kMaxDims + 1> lead; ///< Operand d+1: byte strides of index d.
  const char *ptr[kMaxDims] = {};
  ScalarType type[kMaxDims] = {};
  int64_t dim[kMaxDims] = {}, rowStride[kMaxDims] = {};

  /// The row lead position p names, or -1 when an index is out of range.
  __device__ int64_t row(int64_t p) const {
    int64_t off[kMaxDims + 1];
    lead.offsets(p, off);
    int64_t r = 0;
    for (int d = 0; d < k; ++d) {
      int64_t v = loadAs<int64_t>(ptr[d] + off[d + 1], type[d]);
      if (v < -dim[d] || v >= dim[d])
        return -1;
      r += (v < 0 ? v + dim[d] : v) * rowStride[d];
    }
    return r;
  }
};

/// The values of index_put broadcast to (lead dims, rest dims).
struct ValueIndex {
  const char *ptr = nullptr;
  Indexer<1> lead, rest; ///< Byte strides, 0 on broadcast dims.
  int64_t leadLimit = INT64_MAX;

  __device__ const char *at(int64_t p, int64_t r) const {
    int64_t a[1], b[1];
    lead.offsets(p, a);
    rest.offsets(r, b);
    return ptr + a[0] + b[0];
  }
};

/// How the index inputs select the leading dims of the data.
struct IndexPlan {
  bool isMask = false;
  int k = 0;
  std::vector<int64_t> leadShape; ///< Integer indices: their broadcast shape.
  int64_t positions = 0;          ///< Lead positions (integer) or mask elements.
  int64_t rest = 1, rows = 1;     ///< Elements per row, rows of the k dims.
  IndexSet idx;
  const DLTensor *mask = nullptr;
  std::vector<IndexRange> ranges;
};

bool broadcastShapes(Ctx &ctx, const std::vector<const DLTensor *> &ts, std::vector<int64_t> &out) {
  int nd = 0;
  for (const DLTensor *t : ts)
    nd = t->ndim > nd ? t->ndim : nd;
  out.assign(nd, 1);
  for (const DLTensor *t : ts)
    for (int d = 0; d < t->ndim; ++d) {
      int64_t &o = out[nd - t->ndim + d];
      int64_t s = t->shape[d];
      if (s == o || s == 1)
        continue;
      if (o != 1) {
        std::string shapes;
        for (const DLTensor *u : ts)
          shapes += (shapes.empty() ? "" : " and ") + shapeStr(*u);
        ctx.fail("cannot broadcast shapes " + shapes);
        return false;
      }
      o = s;
    }
  return true;
}

bool planIndex(Ctx &ctx, const DLTensor &data, int first, int num, IndexPlan &p) {
  if (num <= 0) {
    ctx.fail("needs at least one index tensor");
    return false;
  }
  if (!isCompact(data)) {
    ctx.fail("on CUDA, takes compact tensors only");
    return false;
  }
  if (scalarTypeOf(ctx.in(first).dtype) == ScalarType::Bool) {
    if (num != 1) {
      ctx.fail("takes a boolean mask only as its single index");
      return false;
    }
    p.isMask = true;
    p.mask = &ctx.in(first);
    p.k = p.mask->ndim;
    bool ok = p.k <= data.ndim;
    for (int d = 0; ok && d < p.k; ++d)
      ok = p.mask->shape[d] == data.shape[d];
    if (!ok) {
      ctx.fail("mask shape " + shapeStr(*p.mask) + " does not match the leading dims of " +
               shapeStr(data));
      return false;
    }
    p.positions = numel(*p.mask);
  } else {
    p.k = num;
    if (p.k > data.ndim) {
      ctx.fail(std::to_string(num) + " index tensors for a tensor of rank " +
               std::to_string(data.ndim));
      return false;
    }
    std::vector<const DLTensor *> ts;
    for (int i = 0; i < num; ++i) {
      const DLTensor &t = ctx.in(first + i);
      ScalarType it = scalarTypeOf(t.dtype);
      if (isFloatType(it) || it == ScalarType::Bool) {
        ctx.fail("index " + std::to_string(i) + " has dtype " + dtypeName(t.dtype) +
                 "; indices are integers or a single bool mask");
        return false;
      }
      ts.push_back(&t);
      p.ranges.push_back({&t, data.shape[i]});
    }
    if (!broadcastShapes(ctx, ts, p.leadShape))
      return false;
    if (p.leadShape.size() > size_t(kMaxDims)) {
      ctx.fail("on CUDA, index tensors have at most 8 dims");
      return false;
    }
    IndexSet &s = p.idx;
    s.k = p.k;
    s.lead.ndim = int(p.leadShape.size());
    p.positions = 1;
    for (size_t d = 0; d < p.leadShape.size(); ++d) {
      s.lead.shape[d] = p.leadShape[d];
      p.positions *= p.leadShape[d];
    }
    int64_t rs = 1;
    for (int d = p.k - 1; d >= 0; --d) {
      s.dim[d] = data.shape[d];
      s.rowStride[d] = rs;
      rs *= data.shape[d];
      int64_t strides[kMaxDims];
      broadcastStrides(ctx, *ts[d], p.leadShape, strides, "index");
      for (size_t e = 0; e < p.leadShape.size(); ++e)
        s.lead.stride[d + 1][e] = strides[e];
      s.ptr[d] = dataOf(*ts[d]);
      s.type[d] = scalarTypeOf(ts[d]->dtype);
    }
  }
  for (int d = 0; d < data.ndim; ++d)
    (d < p.k ? p.rows : p.rest) *= data.shape[d];
  return true;
}

/// Fails with the CPU kernel's message when an index is out of range.
int checkRanges(Ctx &ctx, const IndexPlan &p, void *slot) {
  BadIndex bad;
  if (int rc = findBadIndex(ctx, p.ranges.data(), int(p.ranges.size()), slot, bad))
    return rc;
  if (bad.found)
    return ctx.fail("index " + std::to_string(bad.value) + " is out of range for dim " +
                    std::to_string(bad.which) + " of size " +
                    std::to_string(p.ranges[bad.which].n));
  return 0;
}

/// The shape of the selected values: lead shape (or [count]) + rest dims.
std::vector<int64_t> valueShape(const IndexPlan &p, const DLTensor &data, int64_t lead) {
  std::vector<int64_t> s = p.isMask ? std::vector<int64_t>{lead} : p.leadShape;
  for (int d = p.k; d < data.ndim; ++d)
    s.push_back(data.shape[d]);
  return s;
}

bool sameShape(const DLTensor &t, const std::vector<int64_t> &shape) {
  if (t.ndim != int(shape.size()))
    return false;
  for (int d = 0; d < t.ndim; ++d)
    if (t.shape[d] != shape[d])
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Mask flags and their scan
//===----------------------------------------------------------------------===//

/// flags[i] = element i (row-major) of x is nonzero.
__global__ void flagsKernel(Indexer<1> it, const char *x, ScalarType t, int64_t n, int64_t *flags) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[1];
    it.offsets(i, off);
    flags[i] = loadAs<bool>(x + off[0], t) ? 1 : 0;
  }
}

Indexer<1> byteIndexer(const DLTensor &t) {
  Indexer<1> it;
  it.ndim = t.ndim;
  elementStrides(t, it.stride[0]);
  for (int d = 0; d < t.ndim; ++d) {
    it.shape[d] = t.shape[d];
    it.stride[0][d] *= (t.dtype.bits + 7) / 8;
  }
  return it;
}

struct ScanLayout {
  size_t flags = 0, scan = 0, temp = 0, tempBytes = 0;
};

/// Adds the flags, scan and cub temporary storage of n elements to `c`.
bool carveScan(WorkspaceCarver &c, int64_t n, cudaStream_t s, ScanLayout &l) {
  if (cub::DeviceScan::ExclusiveSum(nullptr, l.tempBytes, static_cast<int64_t *>(nullptr),
                                    static_cast<int64_t *>(nullptr), n, s) != cudaSuccess)
    return false;
  l.flags = c.take(size_t(n) * 8);
  l.scan = c.take(size_t(n) * 8);
  l.temp = c.take(l.tempBytes);
  return true;
}

/// Flags and scan of `x`'s nonzero elements in the workspace at `base`.
int runScan(Ctx &ctx, const DLTensor &x, char *base, const ScanLayout &l) {
  int64_t n = numel(x);
  cudaStream_t s = ctx.stream();
  auto *flags = reinterpret_cast<int64_t *>(base + l.flags);
  flagsKernel<<<gridFor(n, kIndexThreads), kIndexThreads, 0, s>>>(byteIndexer(x), dataOf(x),
                                                                  scalarTypeOf(x.dtype), n, flags);
  if (int rc = ctx.checkLaunch("flagsKernel"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e = cub::DeviceScan::ExclusiveSum(base + l.temp, tempBytes, flags,
                                                reinterpret_cast<int64_t *>(base + l.scan), n, s);
  return e ? ctx.failCuda("cub::DeviceScan::ExclusiveSum", e) : 0;
}

int needWorkspace(Ctx &ctx, size_t bytes) {
  if (ctx.args().workspaceBytes < bytes)
    return ctx.fail("needs a workspace of " + std::to_string(bytes) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  return 0;
}

//===----------------------------------------------------------------------===//
// Counts: graft.host.index_tensor_mask_count, graft.host.nonzero_count
//===----------------------------------------------------------------------===//

__global__ void __launch_bounds__(kIndexThreads)
    countKernel(Indexer<1> it, const char *x, ScalarType t, int64_t n, unsigned long long *count) {
  awaitUpstream();
  using BlockReduce = cub::BlockReduce<long long, kIndexThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  long long c = 0;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[1];
    it.offsets(i, off);
    c += loadAs<bool>(x + off[0], t) ? 1 : 0;
  }
  long long total = BlockReduce(temp).Sum(c);
  if (threadIdx.x == 0 && total)
    atomicAdd(count, (unsigned long long)total);
}

template <bool MaskOnly> int countTrue(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, MaskOnly ? "graft.host.index_tensor_mask_count" : "graft.host.nonzero_count", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (MaskOnly && scalarTypeOf(x.dtype) != ScalarType::Bool)
    return ctx.fail("input 0 has dtype " + dtypeName(x.dtype) + ", expected bool");
  if (scalarTypeOf(out.dtype) != ScalarType::Int64 || out.ndim != 0)
    return ctx.fail("output 0 must be a 0-d int64, got " + dtypeName(out.dtype) + " " +
                    shapeStr(out));
  cudaStream_t s = ctx.stream();
  auto *count = reinterpret_cast<unsigned long long *>(dataOf(out));
  cudaError_t e = cudaMemsetAsync(count, 0, 8, s);
  if (e)
    return ctx.failCuda("cudaMemsetAsync", e);
  int64_t n = numel(x);
  if (n == 0)
    return 0;
  unsigned grid = gridFor(n, kIndexThreads);
  grid = grid > 1024 ? 1024 : grid;
  countKernel<<<grid, kIndexThreads, 0, s>>>(byteIndexer(x), dataOf(x), scalarTypeOf(x.dtype), n,
                                             count);
  return ctx.checkLaunch("countKernel");
}

//===----------------------------------------------------------------------===//
// index_tensor
//===----------------------------------------------------------------------===//

template <class T>
__global__ void gatherKernel(IndexSet idx, const T *data, T *out, int64_t positions, int64_t rest) {
  awaitUpstream();
  int64_t total = positions * rest, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t p = i / rest, r = i - p * rest;
    int64_t row = idx.row(p);
    if (row >= 0)
      out[i] = data[row * rest + r];
  }
}

template <class T>
__global__ void maskGatherKernel(const int64_t *flags, const int64_t *scan, const T *data, T *out,
                                 int64_t n, int64_t rest, int64_t count) {
  awaitUpstream();
  int64_t total = n * rest, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t p = i / rest, r = i - p * rest;
    if (!flags[p])
      continue;
    int64_t j = scan[p];
    if (j < count)
      out[j * rest + r] = data[i];
  }
}

struct IndexTensorLayout {
  size_t slot = 0, total = 0;
  ScanLayout scan;
};

template <bool Mask> bool indexTensorLayout(Ctx &ctx, IndexPlan &p, IndexTensorLayout &l) {
  const DLTensor &data = ctx.in(0);
  if (!planIndex(ctx, data, 1, ctx.numInputs() - 1, p))
    return false;
  WorkspaceCarver c;
  l.slot = c.take(8);
  if (Mask && p.isMask && !carveScan(c, p.positions, ctx.stream(), l.scan)) {
    ctx.fail("cub::DeviceScan: cannot size its temporary storage");
    return false;
  }
  l.total = c.total();
  return true;
}

template <bool Mask> size_t indexTensorWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs < 2 || args->numOutputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  IndexPlan p;
  IndexTensorLayout l;
  return indexTensorLayout<Mask>(ctx, p, l) ? l.total : 0;
}

template <bool Mask> int indexTensor(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Mask ? "graft.host.index_tensor_mask" : "graft.index_tensor", err);
  if (ctx.checkArity(Mask ? 2 : -1, 1))
    return 1;
  if (ctx.numInputs() < 2)
    return ctx.fail("needs at least one index tensor");
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != scalarTypeOf(data.dtype))
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(data.dtype));
  IndexPlan p;
  IndexTensorLayout l;
  if (!indexTensorLayout<Mask>(ctx, p, l))
    return 1;
  if (p.isMask != Mask)
    return ctx.fail(Mask ? "takes one bool mask; use graft.index_tensor for integer indices"
                         : "takes integer indices; use graft.host.index_tensor_mask for a bool "
                           "mask");
  int64_t count = Mask ? (out.ndim > 0 ? out.shape[0] : -1) : 0;
  std::vector<int64_t> want = valueShape(p, data, count);
  if (!sameShape(out, want) || !isCompact(out))
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " +
                    shapeStr(want.data(), int(want.size())));
  if (int rc = needWorkspace(ctx, l.total))
    return rc;
  char *base = alignedBase(ctx.args().workspace);
  if (!Mask && checkRanges(ctx, p, base + l.slot))
    return 1;
  int64_t total = numel(out);
  if (total == 0)
    return 0;
  cudaStream_t s = ctx.stream();
  if (Mask && runScan(ctx, *p.mask, base, l.scan))
    return 1;
  return dispatch(scalarTypeOf(data.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    auto *src = reinterpret_cast<const T *>(dataOf(data));
    auto *dst = reinterpret_cast<T *>(dataOf(out));
    if constexpr (Mask) {
      maskGatherKernel<T><<<gridFor(p.positions * p.rest, kIndexThreads), kIndexThreads, 0, s>>>(
          reinterpret_cast<const int64_t *>(base + l.scan.flags),
          reinterpret_cast<const int64_t *>(base + l.scan.scan), src, dst, p.positions, p.rest,
          count);
      return ctx.checkLaunch("maskGatherKernel");
    } else {
      gatherKernel<T><<<gridFor(total, kIndexThreads), kIndexThreads, 0, s>>>(p.idx, src, dst,
                                                                              p.positions, p.rest);
      return ctx.checkLaunch("gatherKernel");
    }
  });
}

//===----------------------------------------------------------------------===//
// nonzero
//===----------------------------------------------------------------------===//

struct Shape8 {
  int64_t d[kMaxDims];
};

__global__ void nonzeroKernel(const int64_t *flags, const int64_t *scan, Shape8 shape, int ndim,
                              int64_t *out, int64_t n, int64_t count) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (!flags[i])
      continue;
    int64_t j = scan[i];
    if (j >= count)
      continue;
    int64_t q = i;
    for (int d = ndim - 1; d >= 0; --d) {
      out[d * count + j] = q % shape.d[d];
      q /= shape.d[d];
    }
  }
}

size_t nonzeroWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 1)
    return 0;
  WorkspaceCarver c;
  ScanLayout l;
  if (!carveScan(c, numel(*args->inputs[0]), static_cast<cudaStream_t>(args->stream), l))
    return 0;
  return c.total();
}

int nonzero(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.host.nonzero", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != ScalarType::Int64 || out.ndim != 2 || out.shape[0] != x.ndim ||
      !isCompact(out))
    return ctx.fail("output 0 must be an int64 [" + std::to_string(x.ndim) + ", count], got " +
                    dtypeName(out.dtype) + " " + shapeStr(out));
  WorkspaceCarver c;
  ScanLayout l;
  int64_t n = numel(x);
  if (!carveScan(c, n, ctx.stream(), l))
    return ctx.fail("cub::DeviceScan: cannot size its temporary storage");
  if (int rc = needWorkspace(ctx, c.total()))
    return rc;
  if (n == 0 || out.shape[1] == 0)
    return 0;
  char *base = alignedBase(ctx.args().workspace);
  if (runScan(ctx, x, base, l))
    return 1;
  Shape8 shape{};
  for (int d = 0; d < x.ndim; ++d)
    shape.d[d] = x.shape[d];
  nonzeroKernel<<<gridFor(n, kIndexThreads), kIndexThreads, 0, ctx.stream()>>>(
      reinterpret_cast<const int64_t *>(base + l.flags),
      reinterpret_cast<const int64_t *>(base + l.scan), shape, x.ndim,
      reinterpret_cast<int64_t *>(dataOf(out)), n, out.shape[1]);
  return ctx.checkLaunch("nonzeroKernel");
}

//===----------------------------------------------------------------------===//
// index_put
//===----------------------------------------------------------------------===//

__global__ void winnerKernel(IndexSet idx, int64_t positions, long long *winner) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t p = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < positions; p += stride) {
    int64_t row = idx.row(p);
    if (row >= 0)
      atomicMax(&winner[row], (long long)p);
  }
}

template <class T>
__global__ void putKernel(IndexSet idx, ValueIndex vals, const long long *winner, T *out,
                          int64_t positions, int64_t rest) {
  awaitUpstream();
  int64_t total = positions * rest, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t p = i / rest, r = i - p * rest;
    int64_t row = idx.row(p);
    if (row >= 0 && winner[row] == p)
      out[row * rest + r] = *reinterpret_cast<const T *>(vals.at(p, r));
  }
}

__global__ void rowKeysKernel(IndexSet idx, int64_t positions, uint64_t rows, uint64_t *keys,
                              int64_t *order) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t p = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < positions; p += stride) {
    int64_t row = idx.row(p);
    keys[p] = row < 0 ? rows : uint64_t(row);
    order[p] = p;
  }
}

/// One thread per (run of equal rows, element): the run's values added in
/// index order, starting from the data.
template <class T>
__global__ void accumulateKernel(const uint64_t *keys, const int64_t *order, ValueIndex vals,
                                 T *out, int64_t positions, int64_t rest, uint64_t rows) {
  awaitUpstream();
  using A = Compute<T>;
  int64_t total = positions * rest, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t s = i / rest, r = i - s * rest;
    uint64_t key = keys[s];
    if (key >= rows || (s > 0 && keys[s - 1] == key))
      continue;
    T *dst = out + int64_t(key) * rest + r;
    A acc = loadElem<T>(dst);
    for (int64_t j = s; j < positions && keys[j] == key; ++j)
      acc = ops::addC(acc, A(loadElem<T>(reinterpret_cast<const T *>(vals.at(order[j], r)))));
    storeElem<T>(dst, acc);
  }
}

template <class T, bool Accumulate>
__global__ void maskPutKernel(const int64_t *flags, const int64_t *scan, ValueIndex vals, T *out,
                              int64_t n, int64_t rest) {
  awaitUpstream();
  int64_t total = n * rest, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t p = i / rest, r = i - p * rest;
    if (!flags[p])
      continue;
    int64_t j = scan[p];
    if (j >= vals.leadLimit)
      continue;
    const T *v = reinterpret_cast<const T *>(vals.at(j, r));
    if constexpr (Accumulate)
      storeElem<T>(out + i, ops::addC(loadElem<T>(out + i), loadElem<T>(v)));
    else
      out[i] = *v;
  }
}

struct PutLayout {
  size_t slot = 0, winner = 0, keysIn = 0, keysOut = 0, orderIn = 0, orderOut = 0, temp = 0,
         tempBytes = 0, total = 0;
  int endBit = 1;
  ScanLayout scan;
};

bool putLayout(Ctx &ctx, IndexPlan &p, bool &accumulate, PutLayout &l) {
  const DLTensor &data = ctx.in(0);
  if (!ctx.boolAttr(0, "accumulate", false, accumulate) ||
      !planIndex(ctx, data, 1, ctx.numInputs() - 2, p))
    return false;
  WorkspaceCarver c;
  l.slot = c.take(8);
  if (p.isMask) {
    if (!carveScan(c, p.positions, ctx.stream(), l.scan)) {
      ctx.fail("cub::DeviceScan: cannot size its temporary storage");
      return false;
    }
  } else if (!accumulate) {
    l.winner = c.take(size_t(p.rows) * 8);
  } else {
    // Keys 0..rows (rows marks an out-of-range position).
    while (l.endBit < 64 && (uint64_t(1) << l.endBit) <= uint64_t(p.rows))
      ++l.endBit;
    if (cub::DeviceRadixSort::SortPairs(nullptr, l.tempBytes, static_cast<uint64_t *>(nullptr),
                                        static_cast<uint64_t *>(nullptr),
                                        static_cast<int64_t *>(nullptr),
                                        static_cast<int64_t *>(nullptr), p.positions, 0, l.endBit,
                                        ctx.stream()) != cudaSuccess) {
      ctx.fail("cub::DeviceRadixSort: cannot size its temporary storage");
      return false;
    }
    size_t n = size_t(p.positions) * 8;
    l.keysIn = c.take(n);
    l.keysOut = c.take(n);
    l.orderIn = c.take(n);
    l.orderOut = c.take(n);
    l.temp = c.take(l.tempBytes);
  }
  l.total = c.total();
  return true;
}

size_t indexPutWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs < 3 || args->numOutputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  IndexPlan p;
  PutLayout l;
  bool accumulate = false;
  return putLayout(ctx, p, accumulate, l) ? l.total : 0;
}

/// The values broadcast to the selected shape. For a mask the count is
/// known on the device only: a values dim in its place must be 1 or the
/// count, which indexPut reads back to check (not while capturing).
int planValues(Ctx &ctx, const IndexPlan &p, const DLTensor &data, const DLTensor &v,
               ValueIndex &vi) {
  int restDims = data.ndim - p.k;
  int64_t lead = 1;
  if (p.isMask && v.ndim > restDims)
    lead = v.shape[v.ndim - restDims - 1];
  std::vector<int64_t> shape = valueShape(p, data, lead);
  if (shape.size() > size_t(kMaxDims))
    return ctx.fail("on CUDA, the selected values have at most 8 dims");
  int64_t strides[kMaxDims];
  if (!broadcastStrides(ctx, v, shape, strides, "values"))
    return 1;
  int leadDims = int(shape.size()) - restDims;
  vi.ptr = dataOf(v);
  vi.lead.ndim = leadDims;
  for (int d = 0; d < leadDims; ++d) {
    vi.lead.shape[d] = shape[d];
    vi.lead.stride[0][d] = strides[d];
  }
  vi.rest.ndim = restDims;
  for (int d = 0; d < restDims; ++d) {
    vi.rest.shape[d] = shape[leadDims + d];
    vi.rest.stride[0][d] = strides[leadDims + d];
  }
  if (!p.isMask || lead == 1)
    return 0;
  vi.leadLimit = lead;
  return 0;
}

int readCount(Ctx &ctx, const int64_t *flags, const int64_t *scan, int64_t n, int64_t &count) {
  int64_t last[2] = {0, 0};
  cudaStream_t s = ctx.stream();
  if (int rc = ctx.hostRead("the mask count"))
    return rc;
  cudaError_t e = cudaMemcpyAsync(&last[0], flags + n - 1, 8, cudaMemcpyDeviceToHost, s);
  if (!e)
    e = cudaMemcpyAsync(&last[1], scan + n - 1, 8, cudaMemcpyDeviceToHost, s);
  if (!e)
    e = cudaStreamSynchronize(s);
  if (e)
    return ctx.failCuda("reading the mask count back", e);
  count = last[0] + last[1];
  return 0;
}

int indexPut(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.index_put", err);
  if (ctx.checkArity(-1, 1))
    return 1;
  if (ctx.numInputs() < 3)
    return ctx.fail("expects data, at least one index and values");
  const DLTensor &data = ctx.in(0), &out = ctx.out(0), &values = ctx.in(ctx.numInputs() - 1);
  ScalarType t = scalarTypeOf(data.dtype);
  if (scalarTypeOf(values.dtype) != t)
    return ctx.fail("values has dtype " + dtypeName(values.dtype) + ", expected " +
                    dtypeName(data.dtype));
  if (scalarTypeOf(out.dtype) != t || out.ndim != data.ndim || shapeStr(out) != shapeStr(data) ||
      !isCompact(out))
    return ctx.fail("output must be a compact " + dtypeName(data.dtype) + " " + shapeStr(data) +
                    ", got " + dtypeName(out.dtype) + " " + shapeStr(out));
  IndexPlan p;
  PutLayout l;
  bool accumulate = false;
  if (!putLayout(ctx, p, accumulate, l))
    return 1;
  ValueIndex vi;
  if (planValues(ctx, p, data, values, vi))
    return 1;
  if (int rc = needWorkspace(ctx, l.total))
    return rc;
  char *base = alignedBase(ctx.args().workspace);
  if (checkRanges(ctx, p, base + l.slot))
    return 1;
  // After the index check, as the CPU kernel reports them.
  if (accumulate && t == ScalarType::Bool)
    return ctx.fail("cannot accumulate bool");
  cudaStream_t s = ctx.stream();
  size_t bytes = size_t(numel(data)) * ((data.dtype.bits + 7) / 8);
  if (bytes && dataOf(out) != dataOf(data)) {
    cudaError_t e = cudaMemcpyAsync(dataOf(out), dataOf(data), bytes, cudaMemcpyDeviceToDevice, s);
    if (e)
      return ctx.failCuda("cudaMemcpyAsync", e);
  }
  int64_t total = p.positions * p.rest;
  if (total == 0)
    return 0;
  unsigned grid = gridFor(total, kIndexThreads);
  if (p.isMask) {
    if (runScan(ctx, *p.mask, base, l.scan))
      return 1;
    auto *flags = reinterpret_cast<const int64_t *>(base + l.scan.flags);
    auto *scan = reinterpret_cast<const int64_t *>(base + l.scan.scan);
    if (vi.leadLimit != INT64_MAX && !streamCapturing(s)) {
      int64_t count = 0;
      if (readCount(ctx, flags, scan, p.positions, count))
        return 1;
      if (count != vi.leadLimit)
        return ctx.fail("values of shape " + shapeStr(values) + " cannot broadcast to the " +
                        std::to_string(count) + " selected rows");
    }
    return dispatch(t, [&](auto tag) -> int {
      using T = decltype(tag);
      auto *dst = reinterpret_cast<T *>(dataOf(out));
      if constexpr (!std::is_same_v<T, bool>)
        if (accumulate) {
          maskPutKernel<T, true>
              <<<grid, kIndexThreads, 0, s>>>(flags, scan, vi, dst, p.positions, p.rest);
          return ctx.checkLaunch("maskPutKernel");
        }
      maskPutKernel<T, false>
          <<<grid, kIndexThreads, 0, s>>>(flags, scan, vi, dst, p.positions, p.rest);
      return ctx.checkLaunch("maskPutKernel");
    });
  }
  if (!accumulate) {
    auto *winner = reinterpret_cast<long long *>(base + l.winner);
    cudaError_t e = cudaMemsetAsync(winner, 0xff, size_t(p.rows) * 8, s);
    if (e)
      return ctx.failCuda("cudaMemsetAsync", e);
    winnerKernel<<<gridFor(p.positions, kIndexThreads), kIndexThreads, 0, s>>>(p.idx, p.positions,
                                                                               winner);
    if (int rc = ctx.checkLaunch("winnerKernel"))
      return rc;
    return dispatch(t, [&](auto tag) -> int {
      using T = decltype(tag);
      putKernel<T><<<grid, kIndexThreads, 0, s>>>(
          p.idx, vi, winner, reinterpret_cast<T *>(dataOf(out)), p.positions, p.rest);
      return ctx.checkLaunch("putKernel");
    });
  }
  auto *keysIn = reinterpret_cast<uint64_t *>(base + l.keysIn);
  auto *keysOut = reinterpret_cast<uint64_t *>(base + l.keysOut);
  auto *orderIn = reinterpret_cast<int64_t *>(base + l.orderIn);
  auto *orderOut = reinterpret_cast<int64_t *>(base + l.orderOut);
  rowKeysKernel<<<gridFor(p.positions, kIndexThreads), kIndexThreads, 0, s>>>(
      p.idx, p.positions, uint64_t(p.rows), keysIn, orderIn);
  if (int rc = ctx.checkLaunch("rowKeysKernel"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e = cub::DeviceRadixSort::SortPairs(base + l.temp, tempBytes, keysIn, keysOut,
                                                  orderIn, orderOut, p.positions, 0, l.endBit, s);
  if (e)
    return ctx.failCuda("cub::DeviceRadixSort::SortPairs", e);
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      accumulateKernel<T><<<grid, kIndexThreads, 0, s>>>(keysOut, orderOut, vi,
                                                         reinterpret_cast<T *>(dataOf(out)),
                                                         p.positions, p.rest, uint64_t(p.rows));
      return ctx.checkLaunch("accumulateKernel");
    }
    return 0;
  });
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

enum class TakeMode { Fast, Wrap, Clip, NaN };

struct TakeArgs {
  Indexer<1> idx; ///< Byte strides of the indices.
  const char *idxPtr;
  ScalarType idxType;
  int64_t n, nidx, inner;
  TakeMode mode;
};

template <class T> __global__ void takeKernel(TakeArgs a, const T *data, T *out, int64_t total) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t b = i % a.inner, q = (i / a.inner) % a.nidx, o = i / (a.inner * a.nidx);
    int64_t off[1];
    a.idx.offsets(q, off);
    int64_t v = loadAs<int64_t>(a.idxPtr + off[0], a.idxType), n = a.n;
    bool inRange = v >= -n && v < n;
    if (a.mode == TakeMode::Wrap)
      v = n ? ((v % n) + n) % n : 0;
    else if (a.mode == TakeMode::Clip)
      v = v < 0 ? 0 : v > n - 1 ? n - 1 : v;
    else if (!inRange) {
      if (a.mode == TakeMode::NaN)
        storeElem<T>(out + i, castTo<Compute<T>>(NAN));
      continue;
    } else if (v < 0)
      v += n;
    if (v >= 0 && v < n)
      out[i] = data[(o * n + v) * a.inner + b];
  }
}

size_t takeWorkspace(const GraftCudaKernelArgs *) { return WorkspaceCarver().take(8) + 256; }

int take(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.take", err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &data = ctx.in(0), &idx = ctx.in(1), &out = ctx.out(0);
  bool axisSet = ctx.hasAttr(0);
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis))
    return 1;
  std::string mode = "fast";
  if (ctx.hasAttr(1)) {
    if (ctx.attr(1).kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'mode' must be a string");
    mode = ctx.attr(1).s;
  }
  ScalarType t = scalarTypeOf(data.dtype), it = scalarTypeOf(idx.dtype);
  if (scalarTypeOf(out.dtype) != t)
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(data.dtype));
  if (isFloatType(it) || it == ScalarType::Bool)
    return ctx.fail("indices must be integers, got " + dtypeName(idx.dtype));
  TakeArgs a{};
  if (mode == "fast")
    a.mode = TakeMode::Fast;
  else if (mode == "wrap")
    a.mode = TakeMode::Wrap;
  else if (mode == "clip")
    a.mode = TakeMode::Clip;
  else if (mode == "nan")
    a.mode = TakeMode::NaN;
  else
    return ctx.fail("unknown mode '" + mode + "'");
  if (a.mode == TakeMode::NaN && !isFloatType(t))
    return ctx.fail("mode 'nan' needs a floating-point tensor");
  // Unset axis: index the row-major flattening.
  std::vector<int64_t> shape(data.shape, data.shape + data.ndim);
  if (!axisSet)
    shape = {numel(data)};
  int nd = int(shape.size());
  if (axis < -nd || axis >= nd)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " + std::to_string(nd) +
                    " dims");
  axis = axis < 0 ? axis + nd : axis;
  std::vector<int64_t> want(shape.begin(), shape.begin() + axis);
  want.insert(want.end(), idx.shape, idx.shape + idx.ndim);
  want.insert(want.end(), shape.begin() + axis + 1, shape.end());
  if (!sameShape(out, want))
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " +
                    shapeStr(want.data(), int(want.size())));
  if (!isCompact(data) || !isCompact(out))
    return ctx.fail("on CUDA, takes compact tensors only");
  a.n = shape[axis];
  a.nidx = numel(idx);
  a.inner = 1;
  for (int d = int(axis) + 1; d < nd; ++d)
    a.inner *= shape[d];
  if (a.mode == TakeMode::Fast || (a.n == 0 && a.nidx != 0 && a.mode != TakeMode::NaN)) {
    if (int rc = needWorkspace(ctx, takeWorkspace(args)))
      return rc;
    IndexRange r{&idx, a.n};
    BadIndex bad;
    if (int rc = findBadIndex(ctx, &r, 1, alignedBase(ctx.args().workspace), bad))
      return rc;
    if (bad.found)
      return ctx.fail("index " + std::to_string(bad.value) + " is out of range for a dim of " +
                      std::to_string(a.n));
  }
  int64_t total = numel(out);
  if (total == 0)
    return 0;
  a.idx = byteIndexer(idx);
  a.idxPtr = dataOf(idx);
  a.idxType = it;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    takeKernel<T><<<gridFor(total, kIndexThreads), kIndexThreads, 0, ctx.stream()>>>(
        a, reinterpret_cast<const T *>(dataOf(data)), reinterpret_cast<T *>(dataOf(out)), total);
    return ctx.checkLaunch("takeKernel");
  });
}

const char *const kIndexPutAttrs[] = {"accumulate"};
const char *const kTakeAttrs[] = {"axis", "mode"};

} // namespace

void addIndexKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back(
      {"graft.index_tensor", -1, 1, nullptr, 0, indexTensor<false>, indexTensorWorkspace<false>});
  out.push_back({"graft.host.index_tensor_mask_count", 1, 1, nullptr, 0, countTrue<true>, nullptr});
  out.push_back({"graft.host.index_tensor_mask", 2, 1, nullptr, 0, indexTensor<true>,
                 indexTensorWorkspace<true>});
  out.push_back({"graft.index_put", -1, 1, kIndexPutAttrs, 1, indexPut, indexPutWorkspace});
  out.push_back({"graft.host.nonzero_count", 1, 1, nullptr, 0, countTrue<false>, nullptr});
  out.push_back({"graft.host.nonzero", 1, 1, nullptr, 0, nonzero, nonzeroWorkspace});
  out.push_back({"graft.take", 2, 1, kTakeAttrs, 2, take, takeWorkspace});
}

} // namespace graft::cuda
