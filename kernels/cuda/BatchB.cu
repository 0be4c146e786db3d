//===- kernels/cuda/BatchB.cu - gathers, scatters, pads, median, image ops -===//
//
// The CUDA kernels of gather_elements, gather_nd, scatter_nd,
// slice_scatter, nn.pad, nn.pixel_shuffle, median, image.resize2d and
// image.grid_sample, with the CPU kernels' results (kernels/cpu/BatchB.cpp);
// both take their shape checks and per-sample arithmetic from
// kernels/BatchBGeometry.h.
//
//  - The gathers, pad and pixel_shuffle: one thread per output element
//    maps its index back to the input's and copies the element's bytes.
//  - Index values are checked before anything is written, as on the CPU
//    (findBadIndex: a host read); inside a CUDA-graph capture the check is
//    skipped and an out-of-range index writes nothing.
//  - scatter_nd: the index rows' target blocks are sorted stably (cub's
//    radix sort), then one thread per (run of rows with one target, element
//    of the block) folds the run in row order: topi's sequential order, so
//    every reduction, float ones included, gives the CPU's bits on every
//    run.
//  - slice_scatter: two strided copies (data, then src into the slice).
//  - median: one thread per (group, element) ranks the element in the
//    stable order (NaN last) by comparing it with the whole group; the
//    element of rank (n - 1) // 2 writes the result. Quadratic in the
//    reduced length: meant for the short rows models reduce.
//  - resize2d and grid_sample: one thread per output sample, computing in
//    the CPU kernel's compute type (float for the half types).
//
// Every tensor must be compact (row-major), as for take.
//
//===----------------------------------------------------------------------===//

#include "kernels/BatchBGeometry.h"
#include "kernels/cuda/Elementwise.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <string>
#include <vector>

namespace graft::cuda {
namespace {

using kernels::GatherNDGeometry;
using kernels::GridSampleParams;
using kernels::PadMode;
using kernels::ResizeParams;
using kernels::ScatterNDGeometry;
using kernels::ShapeRef;
using kernels::SliceScatterRange;

constexpr int kBatchThreads = 256;

ShapeRef shapeOf(const DLTensor &t) { return ShapeRef(t.shape, t.shape + t.ndim); }

int needWorkspace(Ctx &ctx, size_t bytes) {
  if (ctx.args().workspaceBytes < bytes)
    return ctx.fail("needs a workspace of " + std::to_string(bytes) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  return 0;
}

int expectShape(Ctx &ctx, const DLTensor &out, const ShapeRef &shape) {
  if (shapeOf(out) != shape)
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " +
                    shapeStr(shape.data(), int(shape.size())));
  return 0;
}

int expectSameDType(Ctx &ctx, const DLTensor &got, const DLTensor &want, const char *what) {
  if (scalarTypeOf(got.dtype) != scalarTypeOf(want.dtype))
    return ctx.fail(std::string(what) + " has dtype " + dtypeName(got.dtype) + ", expected " +
                    dtypeName(want.dtype));
  return 0;
}

int expectCompact(Ctx &ctx) {
  for (int i = 0; i < ctx.numInputs(); ++i)
    if (!isCompact(ctx.in(i)))
      return ctx.fail("on CUDA, takes compact tensors only");
  for (int i = 0; i < ctx.numOutputs(); ++i)
    if (!isCompact(ctx.out(i)))
      return ctx.fail("on CUDA, takes compact tensors only");
  return 0;
}

int expectIntIndices(Ctx &ctx, const DLTensor &idx) {
  ScalarType t = scalarTypeOf(idx.dtype);
  if (isFloatType(t) || t == ScalarType::Bool)
    return ctx.fail("indices must be integers, got " + dtypeName(idx.dtype));
  return 0;
}

bool strAttr(Ctx &ctx, int i, const char *name, const std::string &dflt, std::string &out) {
  if (!ctx.hasAttr(i)) {
    out = dflt;
    return true;
  }
  if (ctx.attr(i).kind != GRAFT_CUDA_ATTR_STRING) {
    ctx.fail(std::string("attribute '") + name + "' must be a string");
    return false;
  }
  out = ctx.attr(i).s;
  return true;
}

/// Row-major element strides of a shape.
void rowMajor(const int64_t *shape, int ndim, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d];
  }
}

/// The columns of an index tensor whose last dim is the index depth, as
/// views the index check reads (column j's values lie in [-dims[j], dims[j])).
struct IndexColumns {
  std::vector<DLTensor> views;
  std::vector<std::vector<int64_t>> shapes, strides;
  std::vector<IndexRange> ranges;
};

void indexColumns(const DLTensor &idx, const int64_t *dims, IndexColumns &c) {
  int64_t depth = idx.shape[idx.ndim - 1];
  int64_t strides[kMaxDims];
  rowMajor(idx.shape, idx.ndim, strides);
  c.views.resize(size_t(depth));
  c.shapes.resize(size_t(depth));
  c.strides.resize(size_t(depth));
  for (int64_t j = 0; j < depth; ++j) {
    c.shapes[j].assign(idx.shape, idx.shape + idx.ndim - 1);
    c.strides[j].assign(strides, strides + idx.ndim - 1);
    DLTensor v = idx;
    v.ndim = idx.ndim - 1;
    v.shape = c.shapes[j].data();
    v.strides = c.strides[j].data();
    v.byte_offset = idx.byte_offset + uint64_t(j) * ((idx.dtype.bits + 7) / 8);
    c.views[j] = v;
  }
  for (int64_t j = 0; j < depth; ++j)
    c.ranges.push_back({&c.views[j], dims[j]});
}

/// Fails with the CPU kernel's message when an index is out of range.
int checkIndices(Ctx &ctx, const IndexRange *ranges, int num, void *slot) {
  BadIndex bad;
  if (int rc = findBadIndex(ctx, ranges, num, slot, bad))
    return rc;
  if (bad.found)
    return ctx.fail("index " + std::to_string(bad.value) + " is out of range for a dim of size " +
                    std::to_string(ranges[bad.which].n));
  return 0;
}

/// Launches kernel<U> with U the unsigned type of the element's size.
template <template <class> class K, class... Args>
void launchBySize(int bytes, unsigned grid, cudaStream_t s, Args... args) {
  switch (bytes) {
  case 1:
    K<uint8_t>::launch(grid, s, args...);
    break;
  case 2:
    K<uint16_t>::launch(grid, s, args...);
    break;
  case 4:
    K<uint32_t>::launch(grid, s, args...);
    break;
  default:
    K<uint64_t>::launch(grid, s, args...);
    break;
  }
}

__device__ inline int64_t wrapIndex(int64_t k, int64_t n) { return k < 0 ? k + n : k; }

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

struct GatherElementsPlan {
  int ndim, axis;
  int64_t idxShape[kMaxDims], dataStride[kMaxDims];
  int64_t axisLen;
  ScalarType idxType;
  int idxBytes;
};

template <class U>
__global__ void gatherElementsKernel(GatherElementsPlan p, const char *data, const char *idx,
                                     U *out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t rest = o, src = 0;
    int64_t k = wrapIndex(loadAs<int64_t>(idx + o * p.idxBytes, p.idxType), p.axisLen);
    if (k < 0 || k >= p.axisLen)
      continue;
    for (int d = p.ndim - 1; d >= 0; --d) {
      int64_t q = rest / p.idxShape[d], r = rest - q * p.idxShape[d];
      rest = q;
      src += (d == p.axis ? k : r) * p.dataStride[d];
    }
    out[o] = reinterpret_cast<const U *>(data)[src];
  }
}

template <class U> struct GatherElementsLaunch {
  static void launch(unsigned grid, cudaStream_t s, GatherElementsPlan p, const char *data,
                     const char *idx, char *out, int64_t n) {
    gatherElementsKernel<U>
        <<<grid, kBatchThreads, 0, s>>>(p, data, idx, reinterpret_cast<U *>(out), n);
  }
};

size_t indexCheckWorkspace(const GraftCudaKernelArgs *) { return 512; }

int gatherElements(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.gather_elements", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &idx = ctx.in(1), &out = ctx.out(0);
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis))
    return 1;
  int nd = data.ndim;
  if (nd == 0 || axis < -nd || axis >= nd)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(nd));
  axis = axis < 0 ? axis + nd : axis;
  if (int rc = expectIntIndices(ctx, idx))
    return rc;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  if (int rc = expectShape(ctx, out, shapeOf(idx)))
    return rc;
  bool fits = idx.ndim == nd && nd <= kMaxDims;
  for (int d = 0; fits && d < nd; ++d)
    fits = d == axis || idx.shape[d] <= data.shape[d];
  if (!fits)
    return ctx.fail("indices " + shapeStr(idx) + " must have the rank of data " + shapeStr(data) +
                    " and fit in it outside the axis");
  if (int rc = expectCompact(ctx))
    return rc;
  if (int rc = needWorkspace(ctx, indexCheckWorkspace(args)))
    return rc;
  IndexRange r{&idx, data.shape[axis]};
  if (int rc = checkIndices(ctx, &r, 1, alignedBase(ctx.args().workspace)))
    return rc;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  GatherElementsPlan p{};
  p.ndim = nd;
  p.axis = int(axis);
  p.axisLen = data.shape[axis];
  p.idxType = scalarTypeOf(idx.dtype);
  p.idxBytes = (idx.dtype.bits + 7) / 8;
  for (int d = 0; d < nd; ++d)
    p.idxShape[d] = idx.shape[d];
  rowMajor(data.shape, nd, p.dataStride);
  launchBySize<GatherElementsLaunch>((data.dtype.bits + 7) / 8, gridFor(n, kBatchThreads),
                                     ctx.stream(), p, dataOf(data), dataOf(idx), dataOf(out), n);
  return ctx.checkLaunch("gatherElementsKernel");
}

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

struct GatherNDPlan {
  GatherNDGeometry g;
  int64_t dims[kMaxDims];
  ScalarType idxType;
  int idxBytes;
};

template <class U>
__global__ void gatherNDKernel(GatherNDPlan p, const char *data, const char *idx, U *out,
                               int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t batch, row, in;
    p.g.split(o, batch, row, in);
    int64_t k[kMaxDims];
    bool ok = true;
    const char *at = idx + (batch * p.g.rows + row) * p.g.depth * p.idxBytes;
    for (int64_t j = 0; j < p.g.depth; ++j) {
      k[j] = wrapIndex(loadAs<int64_t>(at + j * p.idxBytes, p.idxType), p.dims[j]);
      ok = ok && k[j] >= 0 && k[j] < p.dims[j];
    }
    if (!ok)
      continue;
    // sourceOffset reads the row's indices from `k` (row 0 of batch 0).
    int64_t src = batch * p.g.batchStride + in;
    for (int64_t j = 0; j < p.g.depth; ++j)
      src += k[j] * p.g.strides[j];
    out[o] = reinterpret_cast<const U *>(data)[src];
  }
}

template <class U> struct GatherNDLaunch {
  static void launch(unsigned grid, cudaStream_t s, GatherNDPlan p, const char *data,
                     const char *idx, char *out, int64_t n) {
    gatherNDKernel<U><<<grid, kBatchThreads, 0, s>>>(p, data, idx, reinterpret_cast<U *>(out), n);
  }
};

int gatherND(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.gather_nd", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &idx = ctx.in(1), &out = ctx.out(0);
  int64_t b = 0;
  if (!ctx.intAttr(0, "batch_dims", 0, b))
    return 1;
  if (int rc = expectIntIndices(ctx, idx))
    return rc;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  GatherNDPlan p{};
  std::string why = kernels::gatherNDGeometry(shapeOf(data), shapeOf(idx), b, p.g);
  if (!why.empty())
    return ctx.fail(why);
  if (int rc = expectShape(ctx, out, ShapeRef(p.g.outShape, p.g.outShape + p.g.outNDim)))
    return rc;
  if (int rc = expectCompact(ctx))
    return rc;
  for (int64_t j = 0; j < p.g.depth; ++j)
    p.dims[j] = data.shape[b + j];
  if (int rc = needWorkspace(ctx, indexCheckWorkspace(args)))
    return rc;
  IndexColumns cols;
  indexColumns(idx, p.dims, cols);
  if (int rc = checkIndices(ctx, cols.ranges.data(), int(cols.ranges.size()),
                            alignedBase(ctx.args().workspace)))
    return rc;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  p.idxType = scalarTypeOf(idx.dtype);
  p.idxBytes = (idx.dtype.bits + 7) / 8;
  launchBySize<GatherNDLaunch>((data.dtype.bits + 7) / 8, gridFor(n, kBatchThreads), ctx.stream(),
                               p, dataOf(data), dataOf(idx), dataOf(out), n);
  return ctx.checkLaunch("gatherNDKernel");
}

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

enum class NDReduction : int { Update, Add, Mul, Min, Max };

bool parseNDReduction(const std::string &s, NDReduction &op) {
  if (s == "update")
    op = NDReduction::Update;
  else if (s == "add")
    op = NDReduction::Add;
  else if (s == "mul")
    op = NDReduction::Mul;
  else if (s == "min")
    op = NDReduction::Min;
  else if (s == "max")
    op = NDReduction::Max;
  else
    return false;
  return true;
}

/// Whether x replaces best in a max (or min); NaN wins, as on the CPU.
template <bool Max, class C> __device__ inline bool beatsDev(C x, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (best != best)
      return false;
    if (x != x)
      return true;
  }
  return Max ? best < x : x < best;
}

/// What storing v as T keeps (only the half types lose anything).
template <class T> __device__ inline Compute<T> roundToStorage(Compute<T> v) {
  if constexpr (kIsHalf<T>) {
    T s = toStorage<T>(v);
    return loadElem(&s);
  } else {
    return v;
  }
}

template <class T> __device__ Compute<T> combineND(NDReduction op, Compute<T> acc, Compute<T> v) {
  using C = Compute<T>;
  switch (op) {
  case NDReduction::Update:
    return v;
  case NDReduction::Add:
    return roundToStorage<T>(C(kernels::scalar::addC(acc, v)));
  case NDReduction::Mul:
    return roundToStorage<T>(C(kernels::scalar::mulC(acc, v)));
  case NDReduction::Min:
    return beatsDev<false>(v, acc) ? v : acc;
  case NDReduction::Max:
    return beatsDev<true>(v, acc) ? v : acc;
  }
  return v;
}

/// Each index row's target: its block's first element, or `invalid` for a
/// row with an out-of-range index (only inside a capture).
struct DimList {
  int64_t v[kMaxDims];
};

__global__ void scatterNDKeysKernel(ScatterNDGeometry g, DimList dims, const char *idx,
                                    ScalarType idxType, int idxBytes, uint64_t invalid,
                                    uint64_t *keys, int64_t *rows) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < g.rows; r += stride) {
    int64_t base = 0;
    bool ok = true;
    for (int64_t j = 0; j < g.depth; ++j) {
      int64_t n = dims.v[j];
      int64_t k = wrapIndex(loadAs<int64_t>(idx + (r * g.depth + j) * idxBytes, idxType), n);
      ok = ok && k >= 0 && k < n;
      base += k * g.strides[j];
    }
    keys[r] = ok ? uint64_t(base) : invalid;
    rows[r] = r;
  }
}

/// One thread per (sorted position, element of the block): the first row
/// of each run of equal targets folds the run in row order.
template <class T>
__global__ void scatterNDFoldKernel(int64_t rows, int64_t inner, uint64_t invalid, NDReduction op,
                                    const uint64_t *keys, const int64_t *order, const T *upd,
                                    T *out) {
  awaitUpstream();
  int64_t total = rows * inner;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t i = t / inner, e = t - i * inner;
    uint64_t key = keys[i];
    if (key == invalid || (i > 0 && keys[i - 1] == key))
      continue;
    T *dst = out + int64_t(key) + e;
    Compute<T> acc = loadElem(dst);
    for (int64_t j = i; j < rows && keys[j] == key; ++j)
      acc = combineND<T>(op, acc, loadElem(upd + order[j] * inner + e));
    storeElem(dst, acc);
  }
}

int endBitFor(uint64_t maxKey) {
  int bits = 1;
  while (bits < 64 && (uint64_t(1) << bits) <= maxKey)
    ++bits;
  return bits;
}

/// Workspace: the index check's slot, keys and rows in and out, cub's
/// temporary storage.
struct ScatterNDLayout {
  size_t slot, keysIn, keysOut, rowsIn, rowsOut, temp, tempBytes, total;
};

bool scatterNDLayout(const GraftCudaKernelArgs *args, ScatterNDLayout &l) {
  if (args->numInputs < 3 || args->numOutputs < 1)
    return false;
  const DLTensor &data = *args->inputs[0], &idx = *args->inputs[1];
  int64_t rows = 1;
  for (int d = 0; d + 1 < idx.ndim; ++d)
    rows *= idx.shape[d];
  int endBit = endBitFor(uint64_t(numel(data)));
  l.tempBytes = 0;
  if (cub::DeviceRadixSort::SortPairs(
          nullptr, l.tempBytes, static_cast<uint64_t *>(nullptr), static_cast<uint64_t *>(nullptr),
          static_cast<int64_t *>(nullptr), static_cast<int64_t *>(nullptr), rows, 0, endBit,
          cudaStream_t(args->stream)) != cudaSuccess)
    return false;
  WorkspaceCarver c;
  l.slot = c.take(8);
  l.keysIn = c.take(size_t(rows) * 8);
  l.keysOut = c.take(size_t(rows) * 8);
  l.rowsIn = c.take(size_t(rows) * 8);
  l.rowsOut = c.take(size_t(rows) * 8);
  l.temp = c.take(l.tempBytes);
  l.total = c.total();
  return true;
}

size_t scatterNDWorkspace(const GraftCudaKernelArgs *args) {
  ScatterNDLayout l;
  return scatterNDLayout(args, l) ? l.total : 0;
}

int scatterND(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.scatter_nd", err);
  if (int rc = ctx.checkArity(3, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &idx = ctx.in(1), &upd = ctx.in(2), &out = ctx.out(0);
  std::string red;
  if (!strAttr(ctx, 0, "reduction", "update", red))
    return 1;
  if (int rc = expectIntIndices(ctx, idx))
    return rc;
  if (int rc = expectSameDType(ctx, upd, data, "updates"))
    return rc;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  if (int rc = expectShape(ctx, out, shapeOf(data)))
    return rc;
  NDReduction op;
  if (!parseNDReduction(red, op))
    return ctx.fail("unknown reduction '" + red + "'");
  ScalarType t = scalarTypeOf(data.dtype);
  if (t == ScalarType::Bool && op != NDReduction::Update)
    return ctx.fail("reduction '" + red + "' does not take bool");
  ScatterNDGeometry g;
  std::string why = kernels::scatterNDGeometry(shapeOf(data), shapeOf(idx), shapeOf(upd), g);
  if (!why.empty())
    return ctx.fail(why);
  if (int rc = expectCompact(ctx))
    return rc;
  ScatterNDLayout l;
  if (!scatterNDLayout(args, l))
    return ctx.fail("cub::DeviceRadixSort: cannot size its temporary storage");
  if (int rc = needWorkspace(ctx, l.total))
    return rc;
  char *base = alignedBase(ctx.args().workspace);
  IndexColumns cols;
  indexColumns(idx, data.shape, cols);
  if (int rc = checkIndices(ctx, cols.ranges.data(), int(cols.ranges.size()), base + l.slot))
    return rc;
  cudaStream_t s = ctx.stream();
  if (int rc = copyView(ctx, out, data))
    return rc;
  if (g.rows == 0 || g.inner == 0)
    return 0;
  DimList dims{};
  for (int64_t j = 0; j < g.depth; ++j)
    dims.v[j] = data.shape[j];
  uint64_t invalid = uint64_t(numel(data));
  auto *keysIn = reinterpret_cast<uint64_t *>(base + l.keysIn);
  auto *keysOut = reinterpret_cast<uint64_t *>(base + l.keysOut);
  auto *rowsIn = reinterpret_cast<int64_t *>(base + l.rowsIn);
  auto *rowsOut = reinterpret_cast<int64_t *>(base + l.rowsOut);
  scatterNDKeysKernel<<<gridFor(g.rows, kBatchThreads), kBatchThreads, 0, s>>>(
      g, dims, dataOf(idx), scalarTypeOf(idx.dtype), (idx.dtype.bits + 7) / 8, invalid, keysIn,
      rowsIn);
  if (int rc = ctx.checkLaunch("scatterNDKeysKernel"))
    return rc;
  size_t tempBytes = l.tempBytes;
  cudaError_t e = cub::DeviceRadixSort::SortPairs(base + l.temp, tempBytes, keysIn, keysOut, rowsIn,
                                                  rowsOut, g.rows, 0, endBitFor(invalid), s);
  if (e)
    return ctx.failCuda("cub::DeviceRadixSort::SortPairs", e);
  int64_t total = g.rows * g.inner;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    scatterNDFoldKernel<T><<<gridFor(total, kBatchThreads), kBatchThreads, 0, s>>>(
        g.rows, g.inner, invalid, op, keysOut, rowsOut, reinterpret_cast<const T *>(dataOf(upd)),
        reinterpret_cast<T *>(dataOf(out)));
    return ctx.checkLaunch("scatterNDFoldKernel");
  });
}

//===----------------------------------------------------------------------===//
// slice_scatter
//===----------------------------------------------------------------------===//

int sliceScatter(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.slice_scatter", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &src = ctx.in(1), &out = ctx.out(0);
  int64_t axis = 0, start = 0, end = 0, step = 1;
  if (!ctx.intAttr(0, "axis", 0, axis) || !ctx.intAttr(1, "start", 0, start) ||
      !ctx.intAttr(2, "end", 0, end) || !ctx.intAttr(3, "step", 1, step))
    return 1;
  int nd = data.ndim;
  if (nd == 0 || axis < -nd || axis >= nd)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(nd));
  axis = axis < 0 ? axis + nd : axis;
  if (int rc = expectSameDType(ctx, src, data, "src"))
    return rc;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  if (int rc = expectShape(ctx, out, shapeOf(data)))
    return rc;
  SliceScatterRange r;
  std::string why =
      kernels::sliceScatterRange(shapeOf(data), shapeOf(src), axis, start, end, step, r);
  if (!why.empty())
    return ctx.fail(why);
  if (int rc = copyView(ctx, out, data))
    return rc;
  // The slice of out along the axis, as a strided view.
  std::vector<int64_t> shape = shapeOf(out), strides;
  strides.resize(size_t(nd));
  elementStrides(out, strides.data());
  DLTensor view = out;
  view.byte_offset =
      out.byte_offset + uint64_t(r.begin * strides[size_t(axis)] * ((out.dtype.bits + 7) / 8));
  shape[size_t(axis)] = r.length;
  strides[size_t(axis)] *= r.step;
  view.shape = shape.data();
  view.strides = strides.data();
  return copyView(ctx, view, src);
}

//===----------------------------------------------------------------------===//
// nn.pad, nn.pixel_shuffle
//===----------------------------------------------------------------------===//

struct PadPlan {
  int ndim;
  PadMode mode;
  int64_t outShape[kMaxDims], inShape[kMaxDims], inStride[kMaxDims], before[kMaxDims];
};

template <class T>
__global__ void padKernel(PadPlan p, double value, const T *in, T *out, int64_t n) {
  awaitUpstream();
  T fill = toStorage<T>(castTo<Compute<T>>(value));
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t rest = o, src = 0;
    bool inside = true;
    for (int d = p.ndim - 1; d >= 0; --d) {
      int64_t q = rest / p.outShape[d], r = rest - q * p.outShape[d];
      rest = q;
      int64_t s = kernels::padSource(r - p.before[d], p.inShape[d], p.mode);
      inside = inside && s >= 0;
      src += s * p.inStride[d];
    }
    out[o] = inside ? in[src] : fill;
  }
}

int pad(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.pad", err);
  if (int rc = ctx.checkArity(1, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  std::vector<int64_t> width;
  bool set = false;
  std::string modeName;
  double value = 0;
  if (!ctx.intsAttr(0, "pad_width", width, set) ||
      !strAttr(ctx, 1, "pad_mode", "constant", modeName) ||
      !ctx.floatAttr(2, "pad_value", 0.0, value))
    return 1;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  PadMode mode = kernels::parsePadMode(modeName);
  std::string why = kernels::checkPad(shapeOf(data), width, mode);
  if (!why.empty())
    return ctx.fail(why);
  ShapeRef want = shapeOf(data);
  for (size_t d = 0; d < want.size(); ++d)
    want[d] += width[2 * d] + width[2 * d + 1];
  if (int rc = expectShape(ctx, out, want))
    return rc;
  if (int rc = expectCompact(ctx))
    return rc;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  PadPlan p{};
  p.ndim = data.ndim;
  p.mode = mode;
  rowMajor(data.shape, data.ndim, p.inStride);
  for (int d = 0; d < data.ndim; ++d) {
    p.outShape[d] = out.shape[d];
    p.inShape[d] = data.shape[d];
    p.before[d] = width[size_t(2 * d)];
  }
  return dispatch(scalarTypeOf(data.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    padKernel<T><<<gridFor(n, kBatchThreads), kBatchThreads, 0, ctx.stream()>>>(
        p, value, reinterpret_cast<const T *>(dataOf(data)), reinterpret_cast<T *>(dataOf(out)), n);
    return ctx.checkLaunch("padKernel");
  });
}

struct ShufflePlan {
  int ndim;
  int64_t r;
  int64_t outShape[kMaxDims], inStride[kMaxDims];
};

template <class U>
__global__ void pixelShuffleKernel(ShufflePlan p, const U *in, U *out, int64_t n) {
  awaitUpstream();
  int nd = p.ndim;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t rest = o, at[kMaxDims];
    for (int d = nd - 1; d >= 0; --d) {
      int64_t q = rest / p.outShape[d];
      at[d] = rest - q * p.outShape[d];
      rest = q;
    }
    int64_t h = at[nd - 2], w = at[nd - 1];
    at[nd - 3] = at[nd - 3] * p.r * p.r + (h % p.r) * p.r + w % p.r;
    at[nd - 2] = h / p.r;
    at[nd - 1] = w / p.r;
    int64_t src = 0;
    for (int d = 0; d < nd; ++d)
      src += at[d] * p.inStride[d];
    out[o] = in[src];
  }
}

template <class U> struct ShuffleLaunch {
  static void launch(unsigned grid, cudaStream_t s, ShufflePlan p, const char *in, char *out,
                     int64_t n) {
    pixelShuffleKernel<U><<<grid, kBatchThreads, 0, s>>>(p, reinterpret_cast<const U *>(in),
                                                         reinterpret_cast<U *>(out), n);
  }
};

int pixelShuffle(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.pixel_shuffle", err);
  if (int rc = ctx.checkArity(1, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  int64_t r = 0;
  if (!ctx.intAttr(0, "upscale_factor", 0, r))
    return 1;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  int nd = data.ndim;
  if (r <= 0 || nd < 3 || nd > kMaxDims || data.shape[nd - 3] % (r * r) != 0)
    return ctx.fail("takes data of at least 3 dims whose channels " +
                    std::to_string(nd >= 3 ? data.shape[nd - 3] : 0) +
                    " divide by upscale_factor^2 (" + std::to_string(r) + "^2)");
  ShapeRef want = shapeOf(data);
  want[size_t(nd - 3)] /= r * r;
  want[size_t(nd - 2)] *= r;
  want[size_t(nd - 1)] *= r;
  if (int rc = expectShape(ctx, out, want))
    return rc;
  if (int rc = expectCompact(ctx))
    return rc;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  ShufflePlan p{};
  p.ndim = nd;
  p.r = r;
  for (int d = 0; d < nd; ++d)
    p.outShape[d] = out.shape[d];
  rowMajor(data.shape, nd, p.inStride);
  launchBySize<ShuffleLaunch>((data.dtype.bits + 7) / 8, gridFor(n, kBatchThreads), ctx.stream(), p,
                              dataOf(data), dataOf(out), n);
  return ctx.checkLaunch("pixelShuffleKernel");
}

//===----------------------------------------------------------------------===//
// median
//===----------------------------------------------------------------------===//

struct MedianPlan {
  int outerNDim, innerNDim;
  int64_t outerShape[kMaxDims], outerStride[kMaxDims];
  int64_t innerShape[kMaxDims], innerStride[kMaxDims];
  int64_t len, groups;
};

__device__ inline int64_t offsetOf(int64_t flat, int ndim, const int64_t *shape,
                                   const int64_t *stride) {
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    int64_t q = flat / shape[d];
    off += (flat - q * shape[d]) * stride[d];
    flat = q;
  }
  return off;
}

template <class T>
__global__ void medianKernel(MedianPlan p, const T *x, T *values, int64_t *indices) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t total = p.groups * p.len;
  int64_t kth = (p.len - 1) / 2;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t g = t / p.len, i = t - g * p.len;
    const T *group = x + offsetOf(g, p.outerNDim, p.outerShape, p.outerStride);
    C v = loadElem(group + offsetOf(i, p.innerNDim, p.innerShape, p.innerStride));
    int64_t rank = 0;
    for (int64_t j = 0; j < p.len && rank <= kth; ++j) {
      C w = loadElem(group + offsetOf(j, p.innerNDim, p.innerShape, p.innerStride));
      bool before = kernels::medianLess<C>(w, v) ||
                    (j < i && !kernels::medianLess<C>(v, w) && !kernels::medianLess<C>(w, v));
      rank += before ? 1 : 0;
    }
    if (rank != kth)
      continue;
    storeElem(values + g, v);
    if (indices)
      indices[g] = i;
  }
}

int median(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.median", err);
  if (ctx.numOutputs() < 1 || ctx.numOutputs() > 2)
    return ctx.fail("has 1 or 2 outputs, got " + std::to_string(ctx.numOutputs()));
  if (int rc = ctx.checkArity(1, ctx.numOutputs()))
    return rc;
  const DLTensor &x = ctx.in(0);
  std::vector<int64_t> listed;
  bool set = false, keepdims = false;
  if (!ctx.intsAttr(0, "axis", listed, set) || !ctx.boolAttr(1, "keepdims", false, keepdims))
    return 1;
  int nd = x.ndim;
  if (nd > kMaxDims)
    return ctx.fail("takes at most " + std::to_string(kMaxDims) + " dims");
  std::vector<int64_t> axes;
  if (!set) {
    for (int d = 0; d < nd; ++d)
      axes.push_back(d);
  } else {
    for (int64_t a : listed) {
      if (a < -nd || a >= nd)
        return ctx.fail("axis " + std::to_string(a) + " is out of range for rank " +
                        std::to_string(nd));
      a = a < 0 ? a + nd : a;
      for (int64_t b : axes)
        if (b == a)
          return ctx.fail("axis " + std::to_string(a) + " is repeated");
      axes.push_back(a);
    }
    std::sort(axes.begin(), axes.end());
  }
  bool withIndex = ctx.numOutputs() == 2;
  if (withIndex && axes.size() != 1)
    return ctx.fail("returns indices only for one reduced axis");
  if (int rc = expectSameDType(ctx, ctx.out(0), x, "output 0"))
    return rc;
  if (withIndex && scalarTypeOf(ctx.out(1).dtype) != ScalarType::Int64)
    return ctx.fail("output 1 has dtype " + dtypeName(ctx.out(1).dtype) + ", expected int64");
  MedianPlan p{};
  int64_t strides[kMaxDims];
  rowMajor(x.shape, nd, strides);
  ShapeRef outShape;
  p.len = 1;
  p.groups = 1;
  for (int d = 0; d < nd; ++d) {
    bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (reduced) {
      p.innerShape[p.innerNDim] = x.shape[d];
      p.innerStride[p.innerNDim++] = strides[d];
      p.len *= x.shape[d];
    } else {
      p.outerShape[p.outerNDim] = x.shape[d];
      p.outerStride[p.outerNDim++] = strides[d];
      p.groups *= x.shape[d];
    }
    if (!reduced || keepdims)
      outShape.push_back(reduced ? 1 : x.shape[d]);
  }
  for (int o = 0; o < ctx.numOutputs(); ++o)
    if (int rc = expectShape(ctx, ctx.out(o), outShape))
      return rc;
  if (int rc = expectCompact(ctx))
    return rc;
  if (p.groups == 0)
    return 0;
  if (p.len == 0)
    return ctx.fail("takes no median over an empty axis");
  int64_t total = p.groups * p.len;
  int64_t *indices = withIndex ? reinterpret_cast<int64_t *>(dataOf(ctx.out(1))) : nullptr;
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    medianKernel<T><<<gridFor(total, kBatchThreads), kBatchThreads, 0, ctx.stream()>>>(
        p, reinterpret_cast<const T *>(dataOf(x)), reinterpret_cast<T *>(dataOf(ctx.out(0))),
        indices);
    return ctx.checkLaunch("medianKernel");
  });
}

//===----------------------------------------------------------------------===//
// image.resize2d, image.grid_sample
//===----------------------------------------------------------------------===//

/// A 4-d tensor's element strides in N, C, H, W order, from its layout.
bool nchwStrides(Ctx &ctx, const DLTensor &t, const std::string &layout, int64_t *shape,
                 int64_t *strides) {
  auto perm = kernels::layoutToNCHW(layout);
  if (!perm || t.ndim != 4) {
    ctx.fail("takes a 4-d tensor in a permutation of NCHW, got layout '" + layout + "'");
    return false;
  }
  int64_t s[kMaxDims];
  rowMajor(t.shape, 4, s);
  for (int i = 0; i < 4; ++i) {
    shape[i] = t.shape[(*perm)[size_t(i)]];
    strides[i] = s[(*perm)[size_t(i)]];
  }
  return true;
}

struct ImagePlan {
  int64_t outShape[4], outStride[4], inStride[4];
  int64_t gridStride[4];
};

template <class T> struct PlaneLoad {
  const T *plane;
  int64_t sy, sx;
  __device__ Compute<T> operator()(int64_t y, int64_t x) const {
    return loadElem(plane + y * sy + x * sx);
  }
};

template <class T, class O>
__global__ void resizeKernel(ImagePlan p, ResizeParams r, const T *in, O *out, int64_t n) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t rest = o, at[4];
    for (int d = 3; d >= 0; --d) {
      int64_t q = rest / p.outShape[d];
      at[d] = rest - q * p.outShape[d];
      rest = q;
    }
    PlaneLoad<T> load{in + at[0] * p.inStride[0] + at[1] * p.inStride[1], p.inStride[2],
                      p.inStride[3]};
    C v = kernels::resizeSample<C>(r, at[2], at[3], load);
    int64_t dst = 0;
    for (int d = 0; d < 4; ++d)
      dst += at[d] * p.outStride[d];
    storeElem(out + dst, castTo<Compute<O>>(v));
  }
}

int resize2d(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.image.resize2d", err);
  if (int rc = ctx.checkArity(1, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  std::string layout, method, coords, rounding;
  ResizeParams r;
  int64_t exclude = 0;
  if (!strAttr(ctx, 0, "layout", "NCHW", layout) || !strAttr(ctx, 1, "method", "linear", method) ||
      !strAttr(ctx, 2, "coordinate_transformation_mode", "half_pixel", coords) ||
      !strAttr(ctx, 3, "rounding_method", "round", rounding) ||
      !ctx.floatAttr(4, "cubic_alpha", -0.75, r.cubicAlpha) ||
      !ctx.intAttr(5, "cubic_exclude", 0, exclude))
    return 1;
  r.cubicExclude = exclude != 0;
  std::string why = kernels::parseResize(method, coords, rounding, r);
  if (!why.empty())
    return ctx.fail(why);
  ScalarType in = scalarTypeOf(data.dtype), outT = scalarTypeOf(out.dtype);
  if (!isFloatType(in) || !isFloatType(outT))
    return ctx.fail("takes float data and output, got " + dtypeName(data.dtype) + " and " +
                    dtypeName(out.dtype));
  ImagePlan p{};
  int64_t inShape[4];
  if (!nchwStrides(ctx, data, layout, inShape, p.inStride) ||
      !nchwStrides(ctx, out, layout, p.outShape, p.outStride))
    return 1;
  if (p.outShape[0] != inShape[0] || p.outShape[1] != inShape[1])
    return ctx.fail("output " + shapeStr(out) + " must keep data's N and C " + shapeStr(data));
  if (int rc = expectCompact(ctx))
    return rc;
  r.inH = inShape[2];
  r.inW = inShape[3];
  r.outH = p.outShape[2];
  r.outW = p.outShape[3];
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  if (r.inH == 0 || r.inW == 0)
    return ctx.fail("takes no empty image to a non-empty one");
  return dispatch(in, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      return dispatch(outT, [&](auto otag) -> int {
        using O = decltype(otag);
        if constexpr (kIsFloat<O>) {
          resizeKernel<T, O><<<gridFor(n, kBatchThreads), kBatchThreads, 0, ctx.stream()>>>(
              p, r, reinterpret_cast<const T *>(dataOf(data)), reinterpret_cast<O *>(dataOf(out)),
              n);
          return ctx.checkLaunch("resizeKernel");
        }
        return 0;
      });
    }
    return 0;
  });
}

template <class T>
__global__ void gridSampleKernel(ImagePlan p, GridSampleParams gp, const T *in, const T *grid,
                                 T *out, int64_t n) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n; o += stride) {
    int64_t rest = o, at[4];
    for (int d = 3; d >= 0; --d) {
      int64_t q = rest / p.outShape[d];
      at[d] = rest - q * p.outShape[d];
      rest = q;
    }
    const T *g = grid + at[0] * p.gridStride[0] + at[2] * p.gridStride[1] + at[3] * p.gridStride[2];
    C gx = loadElem(g), gy = loadElem(g + p.gridStride[3]);
    PlaneLoad<T> load{in + at[0] * p.inStride[0] + at[1] * p.inStride[1], p.inStride[2],
                      p.inStride[3]};
    C v = kernels::gridSample<C>(gp, gx, gy, load);
    int64_t dst = 0;
    for (int d = 0; d < 4; ++d)
      dst += at[d] * p.outStride[d];
    storeElem(out + dst, v);
  }
}

int gridSample(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.image.grid_sample", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  const DLTensor &data = ctx.in(0), &grid = ctx.in(1), &out = ctx.out(0);
  std::string method, layout, padding;
  GridSampleParams gp;
  if (!strAttr(ctx, 0, "method", "bilinear", method) ||
      !strAttr(ctx, 1, "layout", "NCHW", layout) ||
      !strAttr(ctx, 2, "padding_mode", "zeros", padding) ||
      !ctx.boolAttr(3, "align_corners", false, gp.alignCorners))
    return 1;
  std::string why = kernels::parseGridSample(method, padding, gp);
  if (!why.empty())
    return ctx.fail(why);
  ScalarType t = scalarTypeOf(data.dtype);
  if (!isFloatType(t))
    return ctx.fail("takes float data");
  if (int rc = expectSameDType(ctx, grid, data, "grid"))
    return rc;
  if (int rc = expectSameDType(ctx, out, data, "output 0"))
    return rc;
  ImagePlan p{};
  int64_t inShape[4];
  if (!nchwStrides(ctx, data, layout, inShape, p.inStride) ||
      !nchwStrides(ctx, out, layout, p.outShape, p.outStride))
    return 1;
  if (grid.ndim != 4 || grid.shape[3] != 2 || grid.shape[0] != inShape[0] ||
      p.outShape[0] != inShape[0] || p.outShape[1] != inShape[1] ||
      p.outShape[2] != grid.shape[1] || p.outShape[3] != grid.shape[2])
    return ctx.fail("takes a grid (N, H_out, W_out, 2) " + shapeStr(grid) + " for data " +
                    shapeStr(data) + " and output " + shapeStr(out) + " (NCHW order)");
  if (int rc = expectCompact(ctx))
    return rc;
  rowMajor(grid.shape, 4, p.gridStride);
  gp.inH = inShape[2];
  gp.inW = inShape[3];
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      gridSampleKernel<T><<<gridFor(n, kBatchThreads), kBatchThreads, 0, ctx.stream()>>>(
          p, gp, reinterpret_cast<const T *>(dataOf(data)),
          reinterpret_cast<const T *>(dataOf(grid)), reinterpret_cast<T *>(dataOf(out)), n);
      return ctx.checkLaunch("gridSampleKernel");
    }
    return 0;
  });
}

const char *const kGatherElementsAttrs[] = {"axis"};
const char *const kGatherNDAttrs[] = {"batch_dims"};
const char *const kScatterNDAttrs[] = {"reduction"};
const char *const kSliceScatterAttrs[] = {"axis", "start", "end", "step"};
const char *const kPadAttrs[] = {"pad_width", "pad_mode", "pad_value"};
const char *const kPixelShuffleAttrs[] = {"upscale_factor"};
const char *const kMedianAttrs[] = {"axis", "keepdims"};
const char *const kResizeAttrs[] = {
    "layout",          "method",      "coordinate_transformation_mode",
    "rounding_method", "cubic_alpha", "cubic_exclude"};
const char *const kGridSampleAttrs[] = {"method", "layout", "padding_mode", "align_corners"};

} // namespace

void addBatchBKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.gather_elements", 2, 1, kGatherElementsAttrs, 1, gatherElements,
                 indexCheckWorkspace});
  out.push_back({"graft.gather_nd", 2, 1, kGatherNDAttrs, 1, gatherND, indexCheckWorkspace});
  out.push_back({"graft.scatter_nd", 3, 1, kScatterNDAttrs, 1, scatterND, scatterNDWorkspace});
  out.push_back({"graft.slice_scatter", 2, 1, kSliceScatterAttrs, 4, sliceScatter, nullptr});
  out.push_back({"graft.nn.pad", 1, 1, kPadAttrs, 3, pad, nullptr});
  out.push_back({"graft.nn.pixel_shuffle", 1, 1, kPixelShuffleAttrs, 1, pixelShuffle, nullptr});
  out.push_back({"graft.median", 1, -1, kMedianAttrs, 2, median, nullptr});
  out.push_back({"graft.image.resize2d", 1, 1, kResizeAttrs, 6, resize2d, nullptr});
  out.push_back({"graft.image.grid_sample", 2, 1, kGridSampleAttrs, 4, gridSample, nullptr});
}

} // namespace graft::cuda
