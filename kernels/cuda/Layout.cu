//===- kernels/cuda/Layout.cu - Layout copies, where, clip, tril/triu, size -===//
//
// Layout ops as copies of a strided view (the CPU kernels' approach): the
// view's strides and byte offset say where each output element comes from,
// and the general elementwise kernel copies through them. concat and split
// copy each part between an input and a slice view of the output (or the
// reverse).
//
//===----------------------------------------------------------------------===//

#include "kernels/SliceAxis.h"
#include "kernels/cuda/Elementwise.cuh"

#include <algorithm>

namespace graft::cuda {
namespace {

int sameDType(Ctx &ctx) {
  for (int i = 0; i < ctx.numOutputs(); ++i)
    if (scalarTypeOf(ctx.out(i).dtype) != scalarTypeOf(ctx.in(0).dtype))
      return ctx.fail("output dtype " + dtypeName(ctx.out(i).dtype) +
                      " does not match the input's " + dtypeName(ctx.in(0).dtype));
  return 0;
}

/// reshape, flatten, expand_dims, squeeze: the same elements in row-major
/// order under another shape. The VM's tensors are compact, so this is a
/// device copy; the output's shape is the caller's (legalize-ops).
template <const char *Symbol>
int reshapeLike(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Symbol, err);
  if (ctx.checkArity(1, 1) || sameDType(ctx))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (numel(x) != numel(out))
    return ctx.fail("cannot reshape " + shapeStr(x) + " (" + std::to_string(numel(x)) +
                    " elements) to " + shapeStr(out));
  if (!isCompact(x) || !isCompact(out))
    return ctx.fail("on CUDA, takes compact tensors only");
  size_t bytes = size_t(numel(x)) * ((x.dtype.bits + 7) / 8);
  if (bytes == 0 || dataOf(x) == dataOf(out))
    return 0;
  cudaError_t e =
      cudaMemcpyAsync(dataOf(out), dataOf(x), bytes, cudaMemcpyDeviceToDevice, ctx.stream());
  return e ? ctx.failCuda("cudaMemcpyAsync", e) : 0;
}

constexpr char kReshape[] = "graft.reshape", kFlatten[] = "graft.flatten",
               kExpandDims[] = "graft.expand_dims", kSqueeze[] = "graft.squeeze";

int broadcastTo(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.broadcast_to", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx))
    return 1;
  return convertInto(ctx, ctx.in(0), false);
}

using graft::kernels::sliceAxis;

int stridedSlice(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.strided_slice", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx))
    return 1;
  const DLTensor &x = ctx.in(0);
  std::vector<int64_t> axes, begin, end, steps;
  bool set = false;
  if (!ctx.intsAttr(0, "axes", axes, set) || !ctx.intsAttr(1, "begin", begin, set) ||
      !ctx.intsAttr(2, "end", end, set) || !ctx.intsAttr(3, "strides", steps, set))
    return 1;
  if (steps.empty())
    steps.assign(axes.size(), 1);
  if (begin.size() != axes.size() || end.size() != axes.size() || steps.size() != axes.size())
    return ctx.fail("axes, begin, end and strides must have one entry per axis");
  int64_t shape[kMaxDims], strides[kMaxDims];
  elementStrides(x, strides);
  for (int d = 0; d < x.ndim; ++d)
    shape[d] = x.shape[d];
  int64_t offset = 0; // elements
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + x.ndim : axes[i];
    if (a < 0 || a >= x.ndim)
      return ctx.fail("axis " + std::to_string(axes[i]) + " is out of range for " +
                      std::to_string(x.ndim) + " dims");
    if (steps[i] == 0)
      return ctx.fail("stride of axis " + std::to_string(axes[i]) + " is 0");
    auto [b, n] = sliceAxis(shape[a], begin[i], end[i], steps[i]);
    // As the CPU kernel's View::sliced: an empty slice never dereferences
    // (its start may lie outside the axis); one element never steps, and a
    // longer slice fits in the axis, so its step is below the extent and
    // the product fits.
    if (n > 0)
      offset += b * strides[a];
    shape[a] = n;
    if (n > 1)
      strides[a] *= steps[i];
  }
  DLTensor view = x;
  view.shape = shape;
  view.strides = strides;
  view.byte_offset += uint64_t(offset * int64_t((x.dtype.bits + 7) / 8));
  return convertInto(ctx, view, true);
}

/// where(cond, x, y) over the broadcast of the three.
template <class T> __global__ void whereKernel(Operands<4> ops, char *out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[4];
    ops.idx.offsets(i, off);
    bool c = loadAs<bool>(ops.in[0] + off[1], ops.type[0]);
    storeElem<T>(reinterpret_cast<T *>(out + off[0]),
                 c ? loadAs<Compute<T>>(ops.in[1] + off[2], ops.type[1])
                   : loadAs<Compute<T>>(ops.in[2] + off[3], ops.type[2]));
  }
}

/// where over compact operands of the output's shape, `cond` bool and the
/// two values of the output's dtype (a masked copy after fuse-masked-copy):
/// V elements per thread from one 16-byte load of each value operand.
template <class T, int V>
__global__ void __launch_bounds__(kThreads)
    whereFlat(const uint8_t *__restrict__ cond, const T *__restrict__ x, const T *__restrict__ y,
              T *__restrict__ out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t nv = n / V;
  for (int64_t i = first; i < nv; i += stride) {
    Vec<uint8_t, V> c = reinterpret_cast<const Vec<uint8_t, V> *>(cond)[i];
    Vec<T, V> a = reinterpret_cast<const Vec<T, V> *>(x)[i];
    Vec<T, V> b = reinterpret_cast<const Vec<T, V> *>(y)[i];
    Vec<T, V> r;
#pragma unroll
    for (int k = 0; k < V; ++k)
      r.v[k] = c.v[k] ? a.v[k] : b.v[k];
    reinterpret_cast<Vec<T, V> *>(out)[i] = r;
  }
  for (int64_t i = nv * V + first; i < n; i += stride)
    out[i] = cond[i] ? x[i] : y[i];
}

/// The flat path of where, when it applies; -1 when it does not.
int whereFlatPath(Ctx &ctx, ScalarType t, int64_t n) {
  const DLTensor &out = ctx.out(0), &c = ctx.in(0), &x = ctx.in(1), &y = ctx.in(2);
  const DLTensor *ins[] = {&c, &x, &y};
  // A bool result keeps the general path, which stores canonical 0 and 1.
  if (t == ScalarType::Bool || scalarTypeOf(c.dtype) != ScalarType::Bool ||
      scalarTypeOf(x.dtype) != t || scalarTypeOf(y.dtype) != t || !flatOperands(out, ins, 3))
    return -1;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    constexpr int V = vecWidth<T>();
    auto *cp = reinterpret_cast<const uint8_t *>(dataOf(c));
    auto *xp = reinterpret_cast<const T *>(dataOf(x));
    auto *yp = reinterpret_cast<const T *>(dataOf(y));
    auto *op = reinterpret_cast<T *>(dataOf(out));
    bool vec = aligned(cp, V) && aligned(xp, sizeof(T) * V) && aligned(yp, sizeof(T) * V) &&
               aligned(op, sizeof(T) * V);
    if (vec)
      whereFlat<T, V>
          <<<gridFor(n / V + 1, kThreads), kThreads, 0, ctx.stream()>>>(cp, xp, yp, op, n);
    else
      whereFlat<T, 1><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(cp, xp, yp, op, n);
    return ctx.checkLaunch("whereFlat");
  });
}

int where(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.where", err);
  if (ctx.checkArity(3, 1))
    return 1;
  const DLTensor &out = ctx.out(0);
  ScalarType t = scalarTypeOf(out.dtype);
  for (int i = 1; i < 3; ++i) {
    ScalarType it = scalarTypeOf(ctx.in(i).dtype);
    if (it != t && it != ScalarType::Bool)
      return ctx.fail("input " + std::to_string(i) + " has dtype " + dtypeName(ctx.in(i).dtype) +
                      ", expected " + dtypeName(out.dtype));
  }
  const DLTensor *ins[] = {&ctx.in(0), &ctx.in(1), &ctx.in(2)};
  Operands<4> ops;
  if (!makeOperands<4>(ctx, out, ins, ops))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  if (int rc = whereFlatPath(ctx, t, n); rc >= 0)
    return rc;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    whereKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n);
    return ctx.checkLaunch("whereKernel");
  });
}

/// dst <- src element by element (one dtype, one shape, any strides).
template <class T>
__global__ void copyKernel(Indexer<2> idx, const char *src, char *dst, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[2];
    idx.offsets(i, off);
    *reinterpret_cast<T *>(dst + off[0]) = *reinterpret_cast<const T *>(src + off[1]);
  }
}

} // namespace

/// Byte offsets into `dst` (slot 0) and `src` (slot 1) over `dst`'s shape;
/// both have elements of the same size.
static Indexer<2> byteIndexer(const DLTensor &dst, const DLTensor &src) {
  Indexer<2> idx;
  idx.ndim = dst.ndim;
  elementStrides(dst, idx.stride[0]);
  elementStrides(src, idx.stride[1]);
  int64_t bytes = elemBytes(dst);
  for (int d = 0; d < dst.ndim; ++d) {
    idx.shape[d] = dst.shape[d];
    idx.stride[0][d] *= bytes;
    idx.stride[1][d] *= bytes;
  }
  return idx;
}

int copyView(Ctx &ctx, const DLTensor &dst, const DLTensor &src) {
  int64_t n = numel(dst);
  if (n == 0)
    return 0;
  Indexer<2> idx = byteIndexer(dst, src);
  return dispatch(scalarTypeOf(dst.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    copyKernel<T>
        <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(idx, dataOf(src), dataOf(dst), n);
    return ctx.checkLaunch("copyKernel");
  });
}

namespace {

/// `t` restricted to [at, at + len) along `axis` (strides kept in `strides`).
DLTensor sliceOf(const DLTensor &t, int axis, int64_t at, int64_t len, int64_t *shape,
                 int64_t *strides) {
  elementStrides(t, strides);
  for (int d = 0; d < t.ndim; ++d)
    shape[d] = t.shape[d];
  shape[axis] = len;
  DLTensor v = t;
  v.shape = shape;
  v.strides = strides;
  v.byte_offset += uint64_t(at * strides[axis] * elemBytes(t));
  return v;
}

/// A compact row-major view of `shape` over t's memory from element `at`.
DLTensor rowMajorAt(const DLTensor &t, const DLTensor &shapeOf, int64_t at) {
  DLTensor v = t;
  v.ndim = shapeOf.ndim;
  v.shape = shapeOf.shape;
  v.strides = nullptr;
  v.byte_offset += uint64_t(at * elemBytes(t));
  return v;
}

int concat(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.concat", err);
  if (ctx.checkArity(-1, 1))
    return 1;
  if (ctx.numInputs() < 1)
    return ctx.fail("needs at least one input");
  for (int i = 1; i < ctx.numInputs(); ++i)
    if (scalarTypeOf(ctx.in(i).dtype) != scalarTypeOf(ctx.in(0).dtype))
      return ctx.fail("input " + std::to_string(i) + " has dtype " + dtypeName(ctx.in(i).dtype) +
                      ", expected " + dtypeName(ctx.in(0).dtype));
  if (sameDType(ctx))
    return 1;
  const DLTensor &out = ctx.out(0), &first = ctx.in(0);
  if (!ctx.hasAttr(0)) {
    // Unset axis: the row-major flattenings one after another.
    int64_t total = 0;
    for (int i = 0; i < ctx.numInputs(); ++i)
      total += numel(ctx.in(i));
    if (out.ndim != 1 || out.shape[0] != total || !isCompact(out))
      return ctx.fail("output has shape " + shapeStr(out) + ", expected [" + std::to_string(total) +
                      "]");
    int64_t at = 0;
    for (int i = 0; i < ctx.numInputs(); ++i) {
      const DLTensor &in = ctx.in(i);
      if (int rc = copyView(ctx, rowMajorAt(out, in, at), in))
        return rc;
      at += numel(in);
    }
    return 0;
  }
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis))
    return 1;
  if (axis < -first.ndim || axis >= first.ndim)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(first.ndim) + " dims");
  int a = int(axis < 0 ? axis + first.ndim : axis);
  std::vector<int64_t> shape(first.shape, first.shape + first.ndim);
  shape[a] = 0;
  for (int i = 0; i < ctx.numInputs(); ++i) {
    const DLTensor &in = ctx.in(i);
    bool ok = in.ndim == first.ndim;
    for (int d = 0; ok && d < in.ndim; ++d)
      ok = d == a || in.shape[d] == first.shape[d];
    if (!ok)
      return ctx.fail("input " + std::to_string(i) + " has shape " + shapeStr(in) +
                      ", which does not match input 0 " + shapeStr(first) + " outside axis " +
                      std::to_string(a));
    shape[a] += in.shape[a];
  }
  if (shapeStr(out) != shapeStr(shape.data(), int(shape.size())))
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " +
                    shapeStr(shape.data(), int(shape.size())));
  int64_t at = 0;
  for (int i = 0; i < ctx.numInputs(); ++i) {
    const DLTensor &in = ctx.in(i);
    int64_t vs[kMaxDims], vst[kMaxDims];
    if (int rc = copyView(ctx, sliceOf(out, a, at, in.shape[a], vs, vst), in))
      return rc;
    at += in.shape[a];
  }
  return 0;
}

int split(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.split", err);
  if (ctx.checkArity(1, -1) || sameDType(ctx))
    return 1;
  const DLTensor &in = ctx.in(0);
  int64_t axis = 0;
  if (!ctx.intAttr(1, "axis", 0, axis))
    return 1;
  if (axis < -in.ndim || axis >= in.ndim)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(in.ndim) + " dims");
  int a = int(axis < 0 ? axis + in.ndim : axis);
  int64_t len = in.shape[a];
  std::vector<int64_t> bounds{0};
  if (ctx.hasAttr(0) && ctx.attr(0).kind == GRAFT_CUDA_ATTR_INT) {
    int64_t parts = ctx.attr(0).i;
    if (parts <= 0 || len % parts != 0)
      return ctx.fail("cannot split a dim of " + std::to_string(len) + " into " +
                      std::to_string(parts) + " equal sections");
    for (int64_t i = 1; i <= parts; ++i)
      bounds.push_back(len / parts * i);
  } else {
    std::vector<int64_t> points;
    bool set = false;
    if (!ctx.intsAttr(0, "indices_or_sections", points, set))
      return 1;
    for (int64_t b : points)
      bounds.push_back(std::clamp<int64_t>(b < 0 ? b + len : b, 0, len));
    bounds.push_back(len);
  }
  if (int(bounds.size()) - 1 != ctx.numOutputs())
    return ctx.fail("splits into " + std::to_string(bounds.size() - 1) + " parts but has " +
                    std::to_string(ctx.numOutputs()) + " outputs");
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    int64_t partLen = std::max<int64_t>(bounds[i + 1] - bounds[i], 0);
    int64_t vs[kMaxDims], vst[kMaxDims];
    DLTensor part = sliceOf(in, a, bounds[i], partLen, vs, vst);
    if (shapeStr(ctx.out(int(i))) != shapeStr(part))
      return ctx.fail("output " + std::to_string(i) + " has shape " + shapeStr(ctx.out(int(i))) +
                      ", expected " + shapeStr(part));
  }
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    int64_t partLen = std::max<int64_t>(bounds[i + 1] - bounds[i], 0);
    int64_t vs[kMaxDims], vst[kMaxDims];
    if (int rc = copyView(ctx, ctx.out(int(i)), sliceOf(in, a, bounds[i], partLen, vs, vst)))
      return rc;
  }
  return 0;
}

/// tril/triu: keeps the elements of the last two dims with j - i <= k
/// (tril) or j - i >= k (triu), zeroes the rest.
template <class T, bool Upper>
__global__ void triKernel(Indexer<2> idx, const char *src, char *dst, int64_t n, int64_t rows,
                          int64_t cols, int64_t k) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[2];
    idx.offsets(i, off);
    int64_t c = i % cols, r = (i / cols) % rows, diff = c - r;
    bool keep = Upper ? diff >= k : diff <= k;
    T *d = reinterpret_cast<T *>(dst + off[0]);
    if (keep)
      *d = *reinterpret_cast<const T *>(src + off[1]);
    else
      storeElem<T>(d, Compute<T>(0));
  }
}

template <bool Upper> int tri(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Upper ? "graft.triu" : "graft.tril", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx))
    return 1;
  const DLTensor &in = ctx.in(0), &out = ctx.out(0);
  int64_t k = 0;
  if (!ctx.intAttr(0, "k", 0, k))
    return 1;
  if (in.ndim < 2)
    return ctx.fail("needs at least 2 dims, got shape " + shapeStr(in));
  if (shapeStr(out) != shapeStr(in))
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " + shapeStr(in));
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  Indexer<2> idx = byteIndexer(out, in);
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    triKernel<T, Upper><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        idx, dataOf(in), dataOf(out), n, in.shape[in.ndim - 2], in.shape[in.ndim - 1], k);
    return ctx.checkLaunch("triKernel");
  });
}

/// clip(min, max): the bounds converted to the compute type first
/// (truncating for integers, as the CPU kernel); NaN stays NaN.
template <class T>
__global__ void clipKernel(Operands<2> ops, char *out, int64_t n, Compute<T> lo, Compute<T> hi) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[2];
    ops.idx.offsets(i, off);
    Compute<T> x = loadElem<T>(reinterpret_cast<const T *>(ops.in[0] + off[1]));
    storeElem<T>(reinterpret_cast<T *>(out + off[0]), x < lo ? lo : (x > hi ? hi : x));
  }
}

int clip(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.clip", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx))
    return 1;
  double lo = 0, hi = 0;
  if (!ctx.hasAttr(0) || !ctx.hasAttr(1))
    return ctx.fail("needs the attributes 'min' and 'max'");
  if (!ctx.floatAttr(0, "min", 0, lo) || !ctx.floatAttr(1, "max", 0, hi))
    return 1;
  const DLTensor &out = ctx.out(0);
  ScalarType t = scalarTypeOf(out.dtype);
  if (t == ScalarType::Bool)
    return ctx.fail("takes a numeric tensor, got bool");
  const DLTensor *ins[] = {&ctx.in(0)};
  Operands<2> ops;
  if (!makeOperands<2>(ctx, out, ins, ops))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    using C = Compute<T>;
    clipKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        ops, dataOf(out), n, castTo<C>(lo), castTo<C>(hi));
    return ctx.checkLaunch("clipKernel");
  });
}

__global__ void storeInt64(int64_t *out, int64_t v) {
  awaitUpstream();
  *out = v;
}

/// size(x): x's element count into a 0-d int64 (a kernel, not a host
/// copy, so it can be captured into a CUDA graph).
int size(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.size", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != ScalarType::Int64 || out.ndim != 0)
    return ctx.fail("output 0 must be a 0-d int64, got " + dtypeName(out.dtype) + " " +
                    shapeStr(out));
  storeInt64<<<1, 1, 0, ctx.stream()>>>(reinterpret_cast<int64_t *>(dataOf(out)), numel(ctx.in(0)));
  return ctx.checkLaunch("storeInt64");
}

const char *const kAxisAttrs[] = {"axis"};
const char *const kSliceAttrs[] = {"axes", "begin", "end", "strides"};
const char *const kSplitAttrs[] = {"indices_or_sections", "axis"};
const char *const kTriAttrs[] = {"k"};
const char *const kClipAttrs[] = {"min", "max"};

} // namespace

void addLayoutKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({kReshape, 1, 1, nullptr, 0, reshapeLike<kReshape>, nullptr});
  out.push_back({kFlatten, 1, 1, nullptr, 0, reshapeLike<kFlatten>, nullptr});
  out.push_back({kExpandDims, 1, 1, kAxisAttrs, 1, reshapeLike<kExpandDims>, nullptr});
  out.push_back({kSqueeze, 1, 1, kAxisAttrs, 1, reshapeLike<kSqueeze>, nullptr});
  out.push_back({"graft.broadcast_to", 1, 1, nullptr, 0, broadcastTo, nullptr});
  out.push_back({"graft.strided_slice", 1, 1, kSliceAttrs, 4, stridedSlice, nullptr});
  out.push_back({"graft.where", 3, 1, nullptr, 0, where, nullptr});
  out.push_back({"graft.concat", -1, 1, kAxisAttrs, 1, concat, nullptr});
  out.push_back({"graft.split", 1, -1, kSplitAttrs, 2, split, nullptr});
  out.push_back({"graft.tril", 1, 1, kTriAttrs, 1, tri<false>, nullptr});
  out.push_back({"graft.triu", 1, 1, kTriAttrs, 1, tri<true>, nullptr});
  out.push_back({"graft.clip", 1, 1, kClipAttrs, 2, clip, nullptr});
  out.push_back({"graft.size", 1, 1, nullptr, 0, size, nullptr});
}

} // namespace graft::cuda
