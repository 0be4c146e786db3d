//===- kernels/cuda/Scan.cu - cumsum and cumprod ----------------------------===//
//
// Many short rows: one thread per row, scanning in the CPU kernel's order
// (bit for bit the CPU's result). One contiguous row whose dtype is its own
// accumulator (float32, float64, the wider integers; the flattened 1-D scan
// of the benchmark): cub::DeviceScan, one pass over the data with
// decoupled look-back, its temporary storage in the caller's workspace.
// Other few long rows: rows cut into chunks of 4096 elements, scanned in
// three launches, each spread over the whole GPU: every chunk's total
// (cub::BlockReduce), the exclusive scan of the totals per row, then every
// chunk's scan (cub::BlockScan) seeded with its prefix. Accumulation is in
// the output's compute type (float for half types), integers wrapping, as
// on the CPU.
//
// cub::DeviceScan's float sums are not bit for bit the same in every run:
// a tile's prefix comes from whichever predecessors had published theirs,
// so the association can change; the result stays within the tests'
// bound of the CPU's sequential sum.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/ElementwiseOps.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

namespace graft::cuda {
namespace {

constexpr int kScanThreads = 256;
constexpr int kChunk = 4096; ///< Elements per chunk: 16 tiles of 256.
/// Rows at or above this count get a thread each.
constexpr int64_t kThreadRows = 2048;

template <bool Prod> struct ScanOp {
  template <class A> __device__ A operator()(const A &a, const A &b) const {
    return Prod ? ops::mulC(a, b) : ops::addC(a, b);
  }
};

/// Where the rows are: `rows` gives each row's first input (operand 1) and
/// output (operand 0) element in bytes; the axis steps by `sx`/`sy` bytes.
struct ScanGeom {
  Indexer<2> rows;
  int64_t n, sx, sy;
  const char *x;
  char *y;
  ScalarType xt;
};

template <class T, bool Prod>
__global__ void scanPerThread(ScanGeom g, int64_t numRows, bool exclusive) {
  awaitUpstream();
  using A = Compute<T>;
  int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= numRows)
    return;
  int64_t off[2];
  g.rows.offsets(r, off);
  A acc(Prod ? 1 : 0);
  ScanOp<Prod> op;
  for (int64_t i = 0; i < g.n; ++i) {
    A v = loadAs<A>(g.x + off[1] + i * g.sx, g.xt);
    if (!exclusive)
      acc = op(acc, v);
    storeElem<T>(reinterpret_cast<T *>(g.y + off[0] + i * g.sy), acc);
    if (exclusive)
      acc = op(acc, v);
  }
}

/// Launch 1: the total of each chunk (blockIdx.x) of each row (blockIdx.y).
template <class T, bool Prod> __global__ void chunkTotals(ScanGeom g, Compute<T> *totals) {
  awaitUpstream();
  using A = Compute<T>;
  using Reduce = cub::BlockReduce<A, kScanThreads>;
  __shared__ typename Reduce::TempStorage temp;
  int64_t off[2];
  g.rows.offsets(blockIdx.y, off);
  int64_t first = int64_t(blockIdx.x) * kChunk;
  A acc(Prod ? 1 : 0);
  ScanOp<Prod> op;
  for (int s = 0; s < kChunk / kScanThreads; ++s) {
    int64_t i = first + s * kScanThreads + threadIdx.x;
    if (i < g.n)
      acc = op(acc, loadAs<A>(g.x + off[1] + i * g.sx, g.xt));
  }
  A total = Reduce(temp).Reduce(acc, op);
  if (threadIdx.x == 0)
    totals[int64_t(blockIdx.y) * gridDim.x + blockIdx.x] = total;
}

/// The running prefix of a block scan tiled over a row.
template <class A, bool Prod> struct RunningPrefix {
  A running;
  __device__ A operator()(A tileTotal) {
    A before = running;
    running = ScanOp<Prod>()(running, tileTotal);
    return before;
  }
};

/// Launch 2: each row's chunk totals become exclusive prefixes, in place.
template <class A, bool Prod> __global__ void scanTotals(A *totals, int64_t chunks) {
  awaitUpstream();
  using Scan = cub::BlockScan<A, kScanThreads>;
  __shared__ typename Scan::TempStorage temp;
  A *row = totals + int64_t(blockIdx.x) * chunks;
  RunningPrefix<A, Prod> prefix{A(Prod ? 1 : 0)};
  for (int64_t base = 0; base < chunks; base += kScanThreads) {
    int64_t i = base + threadIdx.x;
    A v = i < chunks ? row[i] : A(Prod ? 1 : 0);
    Scan(temp).ExclusiveScan(v, v, ScanOp<Prod>(), prefix);
    __syncthreads();
    if (i < chunks)
      row[i] = v;
  }
}

/// Launch 3: each chunk scanned from its prefix.
template <class T, bool Prod>
__global__ void scanChunks(ScanGeom g, const Compute<T> *prefixes, bool exclusive) {
  awaitUpstream();
  using A = Compute<T>;
  using Scan = cub::BlockScan<A, kScanThreads>;
  __shared__ typename Scan::TempStorage temp;
  int64_t off[2];
  g.rows.offsets(blockIdx.y, off);
  int64_t first = int64_t(blockIdx.x) * kChunk;
  RunningPrefix<A, Prod> prefix{prefixes[int64_t(blockIdx.y) * gridDim.x + blockIdx.x]};
  for (int s = 0; s < kChunk / kScanThreads && first + s * kScanThreads < g.n; ++s) {
    int64_t i = first + s * kScanThreads + threadIdx.x;
    A v = i < g.n ? loadAs<A>(g.x + off[1] + i * g.sx, g.xt) : A(Prod ? 1 : 0);
    if (exclusive)
      Scan(temp).ExclusiveScan(v, v, ScanOp<Prod>(), prefix);
    else
      Scan(temp).InclusiveScan(v, v, ScanOp<Prod>(), prefix);
    __syncthreads();
    if (i < g.n)
      storeElem<T>(reinterpret_cast<T *>(g.y + off[0] + i * g.sy), v);
  }
}

/// The scan's geometry; false after ctx.fail.
template <bool Prod> bool plan(Ctx &ctx, ScanGeom &g, int64_t &numRows) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t axis = 0;
  bool flat = !ctx.hasAttr(0);
  if (!flat && !ctx.intAttr(0, "axis", 0, axis))
    return false;
  int64_t ex = (x.dtype.bits + 7) / 8, ey = (out.dtype.bits + 7) / 8;
  g.x = dataOf(x);
  g.y = dataOf(out);
  g.xt = scalarTypeOf(x.dtype);
  if (scalarTypeOf(out.dtype) == ScalarType::Bool) {
    ctx.fail("does not produce bool");
    return false;
  }
  if (flat) {
    if (out.ndim != 1 || out.shape[0] != numel(x)) {
      ctx.fail("output must be 1-D with " + std::to_string(numel(x)) + " elements, got " +
               shapeStr(out));
      return false;
    }
    if (!isCompact(x) || !isCompact(out)) {
      ctx.fail("on CUDA, takes compact tensors when axis is unset");
      return false;
    }
    g.rows = Indexer<2>{};
    g.n = numel(x);
    g.sx = ex;
    g.sy = ey;
    numRows = 1;
    return true;
  }
  if (axis < -x.ndim || axis >= x.ndim || x.ndim == 0) {
    ctx.fail("axis " + std::to_string(axis) + " is out of range for " + std::to_string(x.ndim) +
             " dims");
    return false;
  }
  axis = axis < 0 ? axis + x.ndim : axis;
  if (out.ndim != x.ndim || shapeStr(out) != shapeStr(x)) {
    ctx.fail("output has shape " + shapeStr(out) + " but the input has " + shapeStr(x));
    return false;
  }
  int64_t xs[kMaxDims], ys[kMaxDims];
  elementStrides(x, xs);
  elementStrides(out, ys);
  g.n = x.shape[axis];
  g.sx = xs[axis] * ex;
  g.sy = ys[axis] * ey;
  Indexer<2> &r = g.rows;
  r.ndim = x.ndim;
  numRows = 1;
  for (int d = 0; d < x.ndim; ++d) {
    r.shape[d] = d == axis ? 1 : x.shape[d];
    r.stride[0][d] = ys[d] * ey;
    r.stride[1][d] = xs[d] * ex;
    numRows *= r.shape[d];
  }
  return true;
}

size_t chunksOf(int64_t n) { return size_t((n + kChunk - 1) / kChunk); }

/// One contiguous row of elements that are their own accumulator, input
/// and output of one dtype: cub::DeviceScan straight over the pointers.
template <class T> bool deviceScanApplies(const ScanGeom &g, int64_t rows, ScalarType outType) {
  if constexpr (!std::is_same_v<Compute<T>, T> || std::is_same_v<T, bool>)
    return false;
  else
    return rows == 1 && g.xt == outType && g.sx == int64_t(sizeof(T)) && g.sy == int64_t(sizeof(T));
}

/// cub::DeviceScan over the row: sizes `bytes` when `temp` is null.
template <class T, bool Prod>
cudaError_t deviceScan(void *temp, size_t &bytes, const ScanGeom &g, bool exclusive,
                       cudaStream_t s) {
  auto *x = reinterpret_cast<const T *>(g.x);
  auto *y = reinterpret_cast<T *>(g.y);
  if (exclusive)
    return cub::DeviceScan::ExclusiveScan(temp, bytes, x, y, ScanOp<Prod>(), T(Prod ? 1 : 0), g.n,
                                          s);
  return cub::DeviceScan::InclusiveScan(temp, bytes, x, y, ScanOp<Prod>(), g.n, s);
}

template <bool Prod> size_t scanWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 1 || args->numOutputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  ScanGeom g;
  int64_t rows = 0;
  bool exclusive = false;
  if (!plan<Prod>(ctx, g, rows) || rows >= kThreadRows || rows == 0 || g.n == 0 ||
      !ctx.boolAttr(1, "exclusive", false, exclusive))
    return 0;
  size_t cubBytes = 0;
  ScalarType outType = scalarTypeOf(ctx.out(0).dtype);
  bool viaCub = dispatch(outType, [&](auto tag) -> bool {
    using T = decltype(tag);
    return deviceScanApplies<T>(g, rows, outType) &&
           deviceScan<T, Prod>(nullptr, cubBytes, g, exclusive, ctx.stream()) == cudaSuccess;
  });
  if (viaCub)
    return cubBytes + 256; // Room to align the base.
  return size_t(rows) * chunksOf(g.n) * 8 + 8;
}

template <bool Prod> int scan(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Prod ? "graft.cumprod" : "graft.cumsum", err);
  if (ctx.checkArity(1, 1))
    return 1;
  bool exclusive = false;
  if (!ctx.boolAttr(1, "exclusive", false, exclusive))
    return 1;
  ScanGeom g;
  int64_t rows = 0;
  if (!plan<Prod>(ctx, g, rows))
    return 1;
  if (rows == 0 || g.n == 0)
    return 0;
  return dispatch(scalarTypeOf(ctx.out(0).dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    using A = Compute<T>;
    if constexpr (std::is_same_v<T, bool>) {
      return 1; // Refused by plan.
    } else {
      if (rows >= kThreadRows) {
        scanPerThread<T, Prod>
            <<<gridFor(rows, kScanThreads), kScanThreads, 0, ctx.stream()>>>(g, rows, exclusive);
        return ctx.checkLaunch("scanPerThread");
      }
      if (deviceScanApplies<T>(g, rows, scalarTypeOf(ctx.out(0).dtype))) {
        size_t bytes = 0;
        cudaError_t e = deviceScan<T, Prod>(nullptr, bytes, g, exclusive, ctx.stream());
        if (!e && ctx.args().workspaceBytes < bytes + 256)
          return ctx.fail("needs a workspace of " + std::to_string(bytes + 256) + " bytes, got " +
                          std::to_string(ctx.args().workspaceBytes));
        if (!e)
          e = deviceScan<T, Prod>(alignedBase(ctx.args().workspace), bytes, g, exclusive,
                                  ctx.stream());
        return e ? ctx.failCuda("cub::DeviceScan", e) : 0;
      }
      size_t chunks = chunksOf(g.n);
      size_t need = size_t(rows) * chunks * sizeof(A);
      if (ctx.args().workspaceBytes < need || chunks > 65535u * 1024u)
        return ctx.fail("needs a workspace of " + std::to_string(need) + " bytes, got " +
                        std::to_string(ctx.args().workspaceBytes));
      auto *totals = static_cast<A *>(ctx.args().workspace);
      dim3 grid{unsigned(chunks), unsigned(rows), 1};
      chunkTotals<T, Prod><<<grid, kScanThreads, 0, ctx.stream()>>>(g, totals);
      if (int rc = ctx.checkLaunch("chunkTotals"))
        return rc;
      scanTotals<A, Prod><<<unsigned(rows), kScanThreads, 0, ctx.stream()>>>(totals, chunks);
      if (int rc = ctx.checkLaunch("scanTotals"))
        return rc;
      scanChunks<T, Prod><<<grid, kScanThreads, 0, ctx.stream()>>>(g, totals, exclusive);
      return ctx.checkLaunch("scanChunks");
    }
  });
}

const char *const kScanAttrs[] = {"axis", "exclusive"};

} // namespace

void addScanKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.cumsum", 1, 1, kScanAttrs, 2, scan<false>, scanWorkspace<false>});
  out.push_back({"graft.cumprod", 1, 1, kScanAttrs, 2, scan<true>, scanWorkspace<true>});
}

} // namespace graft::cuda
