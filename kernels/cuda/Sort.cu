//===- kernels/cuda/Sort.cu - sort and argsort ------------------------------===//
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
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

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

const char *const kSortAttrs[] = {"axis", "descending"};

} // namespace

void addSortKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.sort", 1, 1, kSortAttrs, 2, sort<false>, sortWorkspace<false>});
  out.push_back({"graft.argsort", 1, 1, kSortAttrs, 2, sort<true>, sortWorkspace<true>});
}

} // namespace graft::cuda
