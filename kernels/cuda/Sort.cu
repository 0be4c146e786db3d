//===- kernels/cuda/Sort.cu - sort, argsort and topk ------------------------===//
//
// cub's (segmented) radix sort over order-preserving unsigned keys: a float
// becomes its bits with the sign flipped (all bits for a negative value),
// a signed integer its bits with the sign bit flipped; NaN becomes the
// largest key and -0.0 the key of +0.0, which gives the CPU kernel's order
// (NaN last ascending, zeros equal). Descending sorts the complemented
// keys. Radix sort is stable, so ties keep their positions in both
// directions, as the CPU's stable sort. Rows are the last axis of compact
// tensors. A row of up to 4096 elements is sorted by one block in shared
// memory (cub::BlockRadixSort): read once, written once, keys made and
// unmade in registers (H200, 4096 rows of 4096: the segmented radix sort
// went over global memory once per 4-bit digit). Longer rows: one row
// takes cub::DeviceRadixSort, several the segmented sort.
// Another axis (or a strided tensor) is first copied with that axis last
// into a compact buffer of the workspace, and the result copied back.
// topk argsorts its rows the same way (descending when `largest`) and
// gathers the first k positions' values and indices.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <algorithm>

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

namespace graft::cuda {
namespace {

template <int Bytes> struct UnsignedOf;
template <> struct UnsignedOf<1> { using type = uint8_t; };
template <> struct UnsignedOf<2> { using type = uint16_t; };
template <> struct UnsignedOf<4> { using type = uint32_t; };
template <> struct UnsignedOf<8> { using type = uint64_t; };

template <class T> using KeyOf = typename UnsignedOf<sizeof(T)>::type;

template <class T> __device__ bool isNaNBits(KeyOf<T> b) {
  if constexpr (std::is_same_v<T, __half>)
    return (b & 0x7fffu) > 0x7c00u;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return (b & 0x7fffu) > 0x7f80u;
  else if constexpr (std::is_same_v<T, float>)
    return (b & 0x7fffffffu) > 0x7f800000u;
  else
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

template <class T> __global__ void toKeys(const T *x, KeyOf<T> *keys, int64_t n, bool descending) {
  awaitUpstream();
  using U = KeyOf<T>;
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    U b = reinterpret_cast<const U *>(x)[i];
    U k;
    if constexpr (kIsFloat<T>) {
      if (isNaNBits<T>(b))
        k = U(~U(0));
      else if (b == sign) // -0.0 sorts as +0.0.
        k = sign;
      else
        k = (b & sign) ? U(~b) : U(b | sign);
    } else if constexpr (std::is_signed_v<T>) {
      k = U(b ^ sign);
    } else {
      k = b; // unsigned, bool
    }
    keys[i] = descending ? U(~k) : k;
  }
}

template <class T>
__global__ void fromKeys(const KeyOf<T> *keys, T *y, int64_t n, bool descending) {
  awaitUpstream();
  using U = KeyOf<T>;
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    U k = descending ? U(~keys[i]) : keys[i];
    U b;
    if constexpr (kIsFloat<T>)
      b = (k & sign) ? U(k ^ sign) : U(~k);
    else if constexpr (std::is_signed_v<T>)
      b = U(k ^ sign);
    else
      b = k;
    reinterpret_cast<U *>(y)[i] = b;
  }
}

__global__ void iotaRows(int64_t *v, int64_t n, int64_t total) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    v[i] = i % n;
}

__global__ void rowOffsets(int64_t *off, int64_t n, int64_t rows) {
  awaitUpstream();
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i <= rows)
    off[i] = i * n;
}

template <class I> __global__ void castIndices(const int64_t *v, I *out, int64_t total) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    out[i] = I(v[i]);
}

//===----------------------------------------------------------------------===//
// A row per block: cub::BlockRadixSort in shared memory
//===----------------------------------------------------------------------===//

/// How a dtype's bits become an order-preserving unsigned key (toKeys's
/// rules, chosen at run time so one kernel serves every dtype of a width).
enum class KeyKind : uint8_t { Unsigned, Signed, Half, BFloat, Float, Double };

template <class T> constexpr KeyKind keyKindOf() {
  if constexpr (std::is_same_v<T, __half>)
    return KeyKind::Half;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return KeyKind::BFloat;
  else if constexpr (std::is_same_v<T, float>)
    return KeyKind::Float;
  else if constexpr (std::is_same_v<T, double>)
    return KeyKind::Double;
  else if constexpr (std::is_signed_v<T>)
    return KeyKind::Signed;
  else
    return KeyKind::Unsigned;
}

template <class U> __device__ inline U toKey(U b, KeyKind kind, bool descending) {
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  U k = b;
  if (kind == KeyKind::Signed) {
    k = U(b ^ sign);
  } else if (kind != KeyKind::Unsigned) {
    U mag = U(b & U(~sign));
    U inf = kind == KeyKind::Half     ? U(0x7c00u)
            : kind == KeyKind::BFloat ? U(0x7f80u)
            : kind == KeyKind::Float  ? U(0x7f800000u)
                                      : U(0x7ff0000000000000ull);
    if (mag > inf) // NaN
      k = U(~U(0));
    else if (b == sign) // -0.0 sorts as +0.0.
      k = sign;
    else
      k = (b & sign) ? U(~b) : U(b | sign);
  }
  return descending ? U(~k) : k;
}

template <class U> __device__ inline U fromKey(U k, KeyKind kind, bool descending) {
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  if (descending)
    k = U(~k);
  if (kind == KeyKind::Signed)
    return U(k ^ sign);
  if (kind == KeyKind::Unsigned)
    return k;
  return (k & sign) ? U(k ^ sign) : U(~k);
}

/// Rows of `n` elements (compact, row after row) sorted a block each; a row
/// is Threads * Items elements at most. Positions past the row's end get
/// the largest key and sort after it (stable: after a real largest key
/// too). Writes the sorted values, or the positions (int64 or int32).
template <class U, bool Arg, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    blockSortRows(const U *x, void *y, int n, KeyKind kind, bool descending, bool int64Out) {
  awaitUpstream();
  using Load = cub::BlockLoad<U, Threads, Items, cub::BLOCK_LOAD_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<U, Threads, Items, std::conditional_t<Arg, int, cub::NullType>>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
  } smem;
  int64_t row = blockIdx.x;
  U keys[Items];
  Load(smem.load).Load(x + row * n, keys, n, U(0));
  __syncthreads();                      // The load's storage becomes the sort's.
  int first = int(threadIdx.x) * Items; // Blocked: thread t holds t*Items...
  for (int i = 0; i < Items; ++i)
    keys[i] = first + i < n ? toKey(keys[i], kind, descending) : U(~U(0));
  if constexpr (Arg) {
    int vals[Items];
    for (int i = 0; i < Items; ++i)
      vals[i] = first + i;
    Sort(smem.sort).SortBlockedToStriped(keys, vals);
    // Striped: item i of thread t is rank i * Threads + t.
    for (int i = 0; i < Items; ++i) {
      int at = i * Threads + int(threadIdx.x);
      if (at >= n)
        continue;
      if (int64Out)
        static_cast<int64_t *>(y)[row * n + at] = vals[i];
      else
        static_cast<int32_t *>(y)[row * n + at] = vals[i];
    }
  } else {
    Sort(smem.sort).SortBlockedToStriped(keys);
    for (int i = 0; i < Items; ++i) {
      int at = i * Threads + int(threadIdx.x);
      if (at < n)
        static_cast<U *>(y)[row * n + at] = fromKey(keys[i], kind, descending);
    }
  }
}

/// The longest row a block sorts.
constexpr int64_t kBlockSortMax = 4096;

template <class U, bool Arg>
void launchBlockSort(const void *x, void *y, int64_t rows, int64_t n, KeyKind kind, bool descending,
                     bool int64Out, cudaStream_t s) {
  auto *k = static_cast<const U *>(x);
  unsigned grid = unsigned(rows);
  int len = int(n);
  // The smallest block that holds the row: short rows waste no threads.
  if (n <= 128)
    blockSortRows<U, Arg, 64, 2><<<grid, 64, 0, s>>>(k, y, len, kind, descending, int64Out);
  else if (n <= 512)
    blockSortRows<U, Arg, 128, 4><<<grid, 128, 0, s>>>(k, y, len, kind, descending, int64Out);
  else if (n <= 2048)
    blockSortRows<U, Arg, 256, 8><<<grid, 256, 0, s>>>(k, y, len, kind, descending, int64Out);
  else
    blockSortRows<U, Arg, 512, 8><<<grid, 512, 0, s>>>(k, y, len, kind, descending, int64Out);
}

/// The pieces of the workspace, each 256-byte aligned.
struct Layout {
  size_t keysIn = 0, keysOut = 0, valsIn = 0, valsOut = 0, offsets = 0, temp = 0, tempBytes = 0,
         movedIn = 0, movedOut = 0, total = 0;
};

size_t alignUp(size_t v) { return (v + 255) / 256 * 256; }

struct Plan {
  int64_t rows = 0, n = 0;
  bool descending = false;
  ScalarType t = ScalarType::Invalid;
  /// The sorted axis is not the last one of compact tensors: rows are
  /// copied to the last axis of a compact buffer, sorted there and copied
  /// back.
  bool moved = false;
  int axis = 0;
  /// Rows short enough for one block each (and few enough for a grid).
  bool blockRows() const { return n <= kBlockSortMax && rows < (int64_t(1) << 31); }
};

/// Rows along the last axis of compact tensors; false after ctx.fail.
template <bool Arg> bool plan(Ctx &ctx, Plan &p) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t axis = -1;
  if (!ctx.intAttr(0, "axis", -1, axis) || !ctx.boolAttr(1, "descending", false, p.descending))
    return false;
  int nd = x.ndim == 0 ? 1 : x.ndim;
  if (axis < -nd || axis >= nd) {
    ctx.fail("axis " + std::to_string(axis) + " is out of range for " + std::to_string(x.ndim) +
             " dims");
    return false;
  }
  axis = axis < 0 ? axis + nd : axis;
  p.axis = int(axis);
  p.moved = x.ndim != 0 && (axis != x.ndim - 1 || !isCompact(x) || !isCompact(out));
  if (out.ndim != x.ndim || shapeStr(out) != shapeStr(x)) {
    ctx.fail("output has shape " + shapeStr(out) + " but the input has " + shapeStr(x));
    return false;
  }
  ScalarType ot = scalarTypeOf(out.dtype);
  p.t = scalarTypeOf(x.dtype);
  if (Arg ? (ot != ScalarType::Int32 && ot != ScalarType::Int64) : ot != p.t) {
    ctx.fail(Arg ? "output must be int32 or int64, got " + dtypeName(out.dtype)
                 : "output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                       dtypeName(x.dtype));
    return false;
  }
  p.n = x.ndim == 0 ? 1 : x.shape[axis];
  p.rows = p.n == 0 ? 0 : numel(x) / p.n;
  return true;
}

template <class U, bool Arg>
cudaError_t cubSort(void *temp, size_t &tempBytes, const U *keysIn, U *keysOut,
                    const int64_t *valsIn, int64_t *valsOut, const int64_t *offsets, int64_t rows,
                    int64_t n, cudaStream_t s) {
  int64_t total = rows * n;
  if (rows == 1) {
    if constexpr (Arg)
      return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keysIn, keysOut, valsIn, valsOut,
                                             total, 0, int(sizeof(U) * 8), s);
    else
      return cub::DeviceRadixSort::SortKeys(temp, tempBytes, keysIn, keysOut, total, 0,
                                            int(sizeof(U) * 8), s);
  }
  if constexpr (Arg)
    return cub::DeviceSegmentedRadixSort::SortPairs(temp, tempBytes, keysIn, keysOut, valsIn,
                                                    valsOut, total, rows, offsets, offsets + 1, 0,
                                                    int(sizeof(U) * 8), s);
  else
    return cub::DeviceSegmentedRadixSort::SortKeys(temp, tempBytes, keysIn, keysOut, total, rows,
                                                   offsets, offsets + 1, 0, int(sizeof(U) * 8), s);
}

template <bool Arg> bool layoutFor(const Plan &p, Layout &l, cudaStream_t s) {
  return dispatch(p.t, [&](auto tag) -> bool {
    using T = decltype(tag);
    using U = KeyOf<T>;
    size_t total = size_t(p.rows * p.n);
    size_t at = 0;
    auto take = [&](size_t &field, size_t bytes) {
      field = at;
      at += alignUp(bytes);
    };
    if (p.blockRows()) { // Only the moved rows, if any.
      if (p.moved) {
        take(l.movedIn, total * sizeof(T));
        take(l.movedOut, total * 8);
      }
      l.total = at ? at + 256 : 0;
      return true;
    }
    size_t tempBytes = 0;
    if (cubSort<U, Arg>(nullptr, tempBytes, nullptr, nullptr, nullptr, nullptr, nullptr, p.rows,
                        p.n, s) != cudaSuccess)
      return false;
    take(l.keysIn, total * sizeof(U));
    take(l.keysOut, total * sizeof(U));
    if (Arg) {
      take(l.valsIn, total * 8);
      take(l.valsOut, total * 8);
    }
    take(l.offsets, size_t(p.rows + 1) * 8);
    take(l.temp, tempBytes);
    if (p.moved) {
      take(l.movedIn, total * sizeof(T));
      take(l.movedOut, total * 8);
    }
    l.tempBytes = tempBytes;
    l.total = at + 256; // Room to align the base.
    return true;
  });
}

template <bool Arg> size_t sortWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 1 || args->numOutputs != 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  Plan p;
  Layout l;
  if (!plan<Arg>(ctx, p) || p.rows == 0 || !layoutFor<Arg>(p, l, ctx.stream()))
    return 0;
  return l.total;
}

template <bool Arg> int sort(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Arg ? "graft.argsort" : "graft.sort", err);
  if (ctx.checkArity(1, 1))
    return 1;
  Plan p;
  if (!plan<Arg>(ctx, p))
    return 1;
  if (p.rows == 0)
    return 0;
  Layout l;
  if (!layoutFor<Arg>(p, l, ctx.stream()))
    return ctx.fail("cub radix sort: cannot size its temporary storage");
  if (ctx.args().workspaceBytes < l.total)
    return ctx.fail("needs a workspace of " + std::to_string(l.total) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  char *base = reinterpret_cast<char *>(alignUp(reinterpret_cast<uintptr_t>(ctx.args().workspace)));
  int64_t total = p.rows * p.n;
  cudaStream_t s = ctx.stream();
  unsigned grid = gridFor(total, 256);
  // Rows along another axis: the input with that axis moved last, into a
  // compact buffer; the sorted buffer goes back through the same move.
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t movedShape[kMaxDims], xStrides[kMaxDims], outStrides[kMaxDims];
  int64_t xMovedStrides[kMaxDims], outMovedStrides[kMaxDims];
  DLTensor xMoved = x, outMoved = out, bufIn = x, bufOut = out;
  const char *src = dataOf(x);
  char *dst = dataOf(out);
  if (p.moved) {
    elementStrides(x, xStrides);
    elementStrides(out, outStrides);
    for (int d = 0; d < x.ndim; ++d) {
      int from = d == x.ndim - 1 ? p.axis : (d < p.axis ? d : d + 1);
      movedShape[d] = x.shape[from];
      xMovedStrides[d] = xStrides[from];
      outMovedStrides[d] = outStrides[from];
    }
    xMoved.shape = outMoved.shape = bufIn.shape = bufOut.shape = movedShape;
    xMoved.strides = xMovedStrides;
    outMoved.strides = outMovedStrides;
    bufIn.data = base + l.movedIn;
    bufIn.byte_offset = 0;
    bufIn.strides = nullptr;
    bufOut.data = base + l.movedOut;
    bufOut.byte_offset = 0;
    bufOut.strides = nullptr;
    if (int rc = copyView(ctx, bufIn, xMoved))
      return rc;
    src = dataOf(bufIn);
    dst = dataOf(bufOut);
  }
  auto finish = [&](int rc) { return rc || !p.moved ? rc : copyView(ctx, outMoved, bufOut); };
  return dispatch(p.t, [&](auto tag) -> int {
    using T = decltype(tag);
    using U = KeyOf<T>;
    auto *keysIn = reinterpret_cast<U *>(base + l.keysIn);
    auto *keysOut = reinterpret_cast<U *>(base + l.keysOut);
    auto *valsIn = reinterpret_cast<int64_t *>(base + l.valsIn);
    auto *valsOut = reinterpret_cast<int64_t *>(base + l.valsOut);
    auto *offsets = reinterpret_cast<int64_t *>(base + l.offsets);
    if (p.blockRows()) {
      bool int64Out = !Arg || scalarTypeOf(ctx.out(0).dtype) == ScalarType::Int64;
      launchBlockSort<U, Arg>(src, dst, p.rows, p.n, keyKindOf<T>(), p.descending, int64Out, s);
      return finish(ctx.checkLaunch("blockSortRows"));
    }
    toKeys<T><<<grid, 256, 0, s>>>(reinterpret_cast<const T *>(src), keysIn, total, p.descending);
    rowOffsets<<<gridFor(p.rows + 1, 256), 256, 0, s>>>(offsets, p.n, p.rows);
    if (Arg)
      iotaRows<<<grid, 256, 0, s>>>(valsIn, p.n, total);
    if (int rc = ctx.checkLaunch("toKeys"))
      return rc;
    size_t tempBytes = l.tempBytes;
    cudaError_t e = cubSort<U, Arg>(base + l.temp, tempBytes, keysIn, keysOut, valsIn, valsOut,
                                    offsets, p.rows, p.n, s);
    if (e != cudaSuccess)
      return ctx.failCuda("cub radix sort", e);
    if constexpr (Arg) {
      if (scalarTypeOf(ctx.out(0).dtype) == ScalarType::Int64) {
        e = cudaMemcpyAsync(dst, valsOut, size_t(total) * 8, cudaMemcpyDeviceToDevice, s);
        return finish(e ? ctx.failCuda("cudaMemcpyAsync", e) : 0);
      }
      castIndices<int32_t><<<grid, 256, 0, s>>>(valsOut, reinterpret_cast<int32_t *>(dst), total);
      return finish(ctx.checkLaunch("castIndices"));
    } else {
      fromKeys<T><<<grid, 256, 0, s>>>(keysOut, reinterpret_cast<T *>(dst), total, p.descending);
      return finish(ctx.checkLaunch("fromKeys"));
    }
  });
}

//===----------------------------------------------------------------------===//
// topk: argsort of each row, then the first k gathered
//===----------------------------------------------------------------------===//

/// Rows of the input along the axis, the outputs' strides, which outputs.
struct TopkPlan {
  int64_t rows = 0, n = 0, k = 0;
  int outerNdim = 0;
  int64_t outer[kMaxDims] = {};
  int64_t inOuter[kMaxDims] = {}, vOuter[kMaxDims] = {}, iOuter[kMaxDims] = {}; ///< Bytes.
  int64_t inStep = 0, vStep = 0, iStep = 0; ///< Along the axis, bytes.
  bool largest = true, values = true, indices = true;
  ScalarType t = ScalarType::Invalid, indexType = ScalarType::Int64;
  /// The row is not the last axis of a compact input: it is copied there
  /// into the workspace before the sort.
  bool moved = false;
  int axis = 0;
  bool blockRows() const { return n <= kBlockSortMax && rows < (int64_t(1) << 31); }
};

/// One thread per (row, rank < k): the rank's position in the sorted row
/// (`perm`, rows of n) names the input element whose value and index it
/// writes. Values are copied as bits, so -0.0 and NaN payloads survive.
template <class U>
__global__ void topkGather(TopkPlan p, const int64_t *perm, const char *in, char *vals, char *idx) {
  awaitUpstream();
  int64_t total = p.rows * p.k, stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    int64_t row = i / p.k, rank = i - row * p.k;
    int64_t rest = row, io = 0, vo = 0, xo = 0;
    for (int d = p.outerNdim - 1; d >= 0; --d) {
      int64_t q = rest / p.outer[d], r = rest - q * p.outer[d];
      rest = q;
      io += r * p.inOuter[d];
      vo += r * p.vOuter[d];
      xo += r * p.iOuter[d];
    }
    int64_t src = perm[row * p.n + rank];
    if (p.values)
      *reinterpret_cast<U *>(vals + vo + rank * p.vStep) =
          *reinterpret_cast<const U *>(in + io + src * p.inStep);
    if (p.indices)
      storeAs(idx + xo + rank * p.iStep, p.indexType, src);
  }
}

/// Reads the attributes and checks the outputs; false after ctx.fail.
bool topkPlan(Ctx &ctx, TopkPlan &p) {
  if (ctx.numOutputs() < 1) {
    ctx.fail("expects at least 1 outputs, got 0");
    return false;
  }
  if (ctx.checkArity(1, ctx.numOutputs()) || ctx.checkRank(ctx.in(0), "input"))
    return false;
  const DLTensor &x = ctx.in(0);
  int64_t k = 1, axis = -1;
  if (!ctx.intAttr(0, "k", 1, k) || !ctx.intAttr(1, "axis", -1, axis) ||
      !ctx.boolAttr(3, "largest", true, p.largest))
    return false;
  std::string retType = "both";
  if (ctx.hasAttr(2)) {
    if (ctx.attr(2).kind != GRAFT_CUDA_ATTR_STRING) {
      ctx.fail("attr 'ret_type' must be a string");
      return false;
    }
    retType = ctx.attr(2).s;
  }
  p.values = retType == "both" || retType == "values";
  p.indices = retType == "both" || retType == "indices";
  if (!p.values && !p.indices) {
    ctx.fail("unknown ret_type '" + retType + "'");
    return false;
  }
  int want = int(p.values) + int(p.indices);
  if (ctx.numOutputs() != want) {
    ctx.fail("ret_type '" + retType + "' has " + std::to_string(want) + " outputs, got " +
             std::to_string(ctx.numOutputs()));
    return false;
  }
  int rank = std::max(x.ndim, 1);
  if (axis < -rank || axis >= rank) {
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return false;
  }
  int a = int(axis < 0 ? axis + rank : axis);
  int64_t n = x.ndim ? x.shape[a] : 1;
  if (k < 1 || k > n)
    k = n;
  for (int i = 0; i < want; ++i) {
    const DLTensor &o = ctx.out(i);
    bool same = o.ndim == x.ndim;
    for (int d = 0; same && d < x.ndim; ++d)
      same = o.shape[d] == (d == a ? k : x.shape[d]);
    if (!same) {
      std::vector<int64_t> shape(x.shape, x.shape + x.ndim);
      if (!shape.empty())
        shape[a] = k;
      ctx.fail("output has shape " + shapeStr(o) + ", expected " +
               shapeStr(shape.data(), int(shape.size())));
      return false;
    }
  }
  const DLTensor &vOut = ctx.out(0), &iOut = ctx.out(p.values && p.indices ? 1 : 0);
  p.t = scalarTypeOf(x.dtype);
  if (p.values && scalarTypeOf(vOut.dtype) != p.t) {
    ctx.fail("output dtype " + dtypeName(vOut.dtype) + " does not match the input's " +
             dtypeName(x.dtype));
    return false;
  }
  p.indexType = scalarTypeOf(iOut.dtype);
  if (p.indices && p.indexType == ScalarType::Bool) {
    ctx.fail("the indices' dtype must not be bool");
    return false;
  }
  p.n = n;
  p.k = k;
  p.axis = a;
  p.moved = x.ndim != 0 && (a != x.ndim - 1 || !isCompact(x));
  int64_t xs[kMaxDims], vs[kMaxDims], is[kMaxDims];
  elementStrides(x, xs);
  elementStrides(vOut, vs);
  elementStrides(iOut, is);
  int64_t xb = (x.dtype.bits + 7) / 8, vb = (vOut.dtype.bits + 7) / 8,
          ib = (iOut.dtype.bits + 7) / 8;
  p.rows = 1;
  for (int d = 0; d < x.ndim; ++d) {
    if (d == a)
      continue;
    p.outer[p.outerNdim] = x.shape[d];
    p.inOuter[p.outerNdim] = xs[d] * xb;
    p.vOuter[p.outerNdim] = vs[d] * vb;
    p.iOuter[p.outerNdim] = is[d] * ib;
    p.rows *= x.shape[d];
    ++p.outerNdim;
  }
  p.inStep = x.ndim ? xs[a] * xb : 0;
  p.vStep = x.ndim ? vs[a] * vb : 0;
  p.iStep = x.ndim ? is[a] * ib : 0;
  return true;
}

/// The workspace: the moved rows (if any), the sorted positions, and for
/// rows longer than a block sorts, cub's keys, positions and temp storage.
bool topkLayout(const TopkPlan &p, Layout &l, cudaStream_t s) {
  return dispatch(p.t, [&](auto tag) -> bool {
    using T = decltype(tag);
    using U = KeyOf<T>;
    size_t total = size_t(p.rows * p.n), at = 0;
    auto take = [&](size_t &field, size_t bytes) {
      field = at;
      at += alignUp(bytes);
    };
    if (p.moved)
      take(l.movedIn, total * sizeof(T));
    take(l.valsOut, total * 8);
    if (!p.blockRows()) {
      size_t tempBytes = 0;
      if (cubSort<U, true>(nullptr, tempBytes, nullptr, nullptr, nullptr, nullptr, nullptr, p.rows,
                           p.n, s) != cudaSuccess)
        return false;
      take(l.keysIn, total * sizeof(U));
      take(l.keysOut, total * sizeof(U));
      take(l.valsIn, total * 8);
      take(l.offsets, size_t(p.rows + 1) * 8);
      take(l.temp, tempBytes);
      l.tempBytes = tempBytes;
    }
    l.total = at + 256; // Room to align the base.
    return true;
  });
}

size_t topkWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs != 1 || args->numOutputs < 1)
    return 0;
  GraftCudaError err;
  Ctx ctx(args, "", &err);
  TopkPlan p;
  Layout l;
  if (!topkPlan(ctx, p) || p.rows == 0 || p.n == 0 || !topkLayout(p, l, ctx.stream()))
    return 0;
  return l.total;
}

/// TOPI's topk with the CPU kernel's order (kernels/cpu/TopK.cpp): each row
/// is argsorted as graft.argsort does (stable radix sort of order-preserving
/// keys, complemented for `largest`: ties keep the lower index first in both
/// directions, NaN is the largest value, -0.0 ties with +0.0), then the
/// first k positions are gathered: O(n log n) work per row instead of
/// counting each element's rank against the whole row.
int topk(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.topk", err);
  TopkPlan p;
  if (!topkPlan(ctx, p))
    return 1;
  if (p.rows == 0 || p.n == 0)
    return 0;
  Layout l;
  if (!topkLayout(p, l, ctx.stream()))
    return ctx.fail("cub radix sort: cannot size its temporary storage");
  if (ctx.args().workspaceBytes < l.total)
    return ctx.fail("needs a workspace of " + std::to_string(l.total) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  char *base = reinterpret_cast<char *>(alignUp(reinterpret_cast<uintptr_t>(ctx.args().workspace)));
  cudaStream_t s = ctx.stream();
  const DLTensor &x = ctx.in(0);
  const char *src = dataOf(x);
  if (p.moved) {
    // The input with the axis moved last, into a compact buffer.
    int64_t movedShape[kMaxDims], xStrides[kMaxDims], xMovedStrides[kMaxDims];
    elementStrides(x, xStrides);
    for (int d = 0; d < x.ndim; ++d) {
      int from = d == x.ndim - 1 ? p.axis : (d < p.axis ? d : d + 1);
      movedShape[d] = x.shape[from];
      xMovedStrides[d] = xStrides[from];
    }
    DLTensor xMoved = x, buf = x;
    xMoved.shape = buf.shape = movedShape;
    xMoved.strides = xMovedStrides;
    buf.data = base + l.movedIn;
    buf.byte_offset = 0;
    buf.strides = nullptr;
    if (int rc = copyView(ctx, buf, xMoved))
      return rc;
    src = dataOf(buf);
  }
  auto *perm = reinterpret_cast<int64_t *>(base + l.valsOut);
  int64_t total = p.rows * p.n;
  return dispatch(p.t, [&](auto tag) -> int {
    using T = decltype(tag);
    using U = KeyOf<T>;
    if (p.blockRows()) {
      launchBlockSort<U, true>(src, perm, p.rows, p.n, keyKindOf<T>(), p.largest, true, s);
      if (int rc = ctx.checkLaunch("blockSortRows"))
        return rc;
    } else {
      auto *keysIn = reinterpret_cast<U *>(base + l.keysIn);
      auto *keysOut = reinterpret_cast<U *>(base + l.keysOut);
      auto *valsIn = reinterpret_cast<int64_t *>(base + l.valsIn);
      auto *offsets = reinterpret_cast<int64_t *>(base + l.offsets);
      unsigned grid = gridFor(total, 256);
      toKeys<T><<<grid, 256, 0, s>>>(reinterpret_cast<const T *>(src), keysIn, total, p.largest);
      rowOffsets<<<gridFor(p.rows + 1, 256), 256, 0, s>>>(offsets, p.n, p.rows);
      iotaRows<<<grid, 256, 0, s>>>(valsIn, p.n, total);
      if (int rc = ctx.checkLaunch("toKeys"))
        return rc;
      size_t tempBytes = l.tempBytes;
      cudaError_t e = cubSort<U, true>(base + l.temp, tempBytes, keysIn, keysOut, valsIn, perm,
                                       offsets, p.rows, p.n, s);
      if (e != cudaSuccess)
        return ctx.failCuda("cub radix sort", e);
    }
    const DLTensor &vOut = ctx.out(0), &iOut = ctx.out(p.values && p.indices ? 1 : 0);
    topkGather<U>
        <<<gridFor(p.rows * p.k, 256), 256, 0, s>>>(p, perm, dataOf(x), dataOf(vOut), dataOf(iOut));
    return ctx.checkLaunch("topkGather");
  });
}

const char *const kTopkAttrs[] = {"k", "axis", "ret_type", "largest"};

const char *const kSortAttrs[] = {"axis", "descending"};

} // namespace

void addSortKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.sort", 1, 1, kSortAttrs, 2, sort<false>, sortWorkspace<false>});
  out.push_back({"graft.argsort", 1, 1, kSortAttrs, 2, sort<true>, sortWorkspace<true>});
  out.push_back({"graft.topk", 1, -1, kTopkAttrs, 4, topk, topkWorkspace});
}

} // namespace graft::cuda
