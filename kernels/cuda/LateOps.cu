//===- kernels/cuda/LateOps.cu - repeat, tile, flip, layout_transform, qdq, einsum ... -===//
//
// The CUDA kernels of the ops TVM added after the core set, with the CPU
// kernels' results (kernels/cpu/Movement.cpp, Quantize.cpp, Einsum.cpp;
// topk, a sort, lives with sort in Sort.cu):
//
//  - repeat and tile: one thread per output element maps its index back to
//    the input's (i / repeats along the axis; i % extent for tile);
//  - flip: a strided view with a negative step, copied as strided_slice's;
//  - layout_transform: the index map's plan (kernels/IndexMapPlan.h) runs
//    forward, one thread per input element scattering it to its output
//    element, after a fill with the pad value when the output is larger;
//  - dynamic_strided_slice: a host form; both kernels read begin/end/strides
//    back (the count kernel writes the output's shape, the fill kernel
//    copies the view they describe);
//  - quantize/dequantize: elementwise over the data with per-axis (or
//    scalar) scale and zero point as stride-0 operands, in the CPU kernels'
//    compute types and saturation, so the bits match;
//  - einsum: one thread per output element runs the CPU kernel's loop over
//    the summed labels in the same order, multiplying without contraction
//    into fused multiply-adds, so float results match bit for bit.
//
//===----------------------------------------------------------------------===//

#include "kernels/IndexMapPlan.h"
#include "kernels/LayoutGather.h"
#include "kernels/SliceAxis.h"
#include "kernels/cuda/Elementwise.cuh"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <tuple>

namespace graft::cuda {
namespace {

int sameDType(Ctx &ctx) {
  if (scalarTypeOf(ctx.out(0).dtype) != scalarTypeOf(ctx.in(0).dtype))
    return ctx.fail("output dtype " + dtypeName(ctx.out(0).dtype) + " does not match the input's " +
                    dtypeName(ctx.in(0).dtype));
  return 0;
}

int expectShape(Ctx &ctx, const DLTensor &out, const std::vector<int64_t> &shape) {
  bool same = out.ndim == int(shape.size());
  for (int d = 0; same && d < out.ndim; ++d)
    same = out.shape[d] == shape[d];
  if (!same)
    return ctx.fail("output has shape " + shapeStr(out) + ", expected " +
                    shapeStr(shape.data(), int(shape.size())));
  return 0;
}

//===----------------------------------------------------------------------===//
// repeat, tile
//===----------------------------------------------------------------------===//

enum class GatherMode : int { RepeatAxis, RepeatFlat, Tile };

/// Where output element i comes from. Strides in bytes.
struct GatherPlan {
  GatherMode mode;
  int ndim, inNdim, axis;
  int64_t reps;
  int64_t outShape[kMaxDims], outStride[kMaxDims];
  int64_t inShape[kMaxDims], inStride[kMaxDims];
};

template <class U>
__global__ void gatherKernel(GatherPlan p, const char *in, char *out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t rest = i, dst = 0, src = 0;
    if (p.mode == GatherMode::RepeatFlat) {
      dst = i * p.outStride[0];
      int64_t flat = i / p.reps;
      for (int d = p.inNdim - 1; d >= 0; --d) {
        int64_t q = flat / p.inShape[d];
        src += (flat - q * p.inShape[d]) * p.inStride[d];
        flat = q;
      }
    } else {
      for (int d = p.ndim - 1; d >= 0; --d) {
        int64_t q = rest / p.outShape[d], r = rest - q * p.outShape[d];
        rest = q;
        dst += r * p.outStride[d];
        int64_t s = p.mode == GatherMode::Tile ? r % p.inShape[d] : d == p.axis ? r / p.reps : r;
        src += s * p.inStride[d];
      }
    }
    *reinterpret_cast<U *>(out + dst) = *reinterpret_cast<const U *>(in + src);
  }
}

int launchGather(Ctx &ctx, const GatherPlan &p) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  unsigned grid = gridFor(n, kThreads);
  switch (elemBytes(x)) {
  case 1:
    gatherKernel<uint8_t><<<grid, kThreads, 0, ctx.stream()>>>(p, dataOf(x), dataOf(out), n);
    break;
  case 2:
    gatherKernel<uint16_t><<<grid, kThreads, 0, ctx.stream()>>>(p, dataOf(x), dataOf(out), n);
    break;
  case 4:
    gatherKernel<uint32_t><<<grid, kThreads, 0, ctx.stream()>>>(p, dataOf(x), dataOf(out), n);
    break;
  default:
    gatherKernel<uint64_t><<<grid, kThreads, 0, ctx.stream()>>>(p, dataOf(x), dataOf(out), n);
    break;
  }
  return ctx.checkLaunch("gatherKernel");
}

/// The input's byte strides and extents into the plan.
void setInput(GatherPlan &p, const DLTensor &x, int lead) {
  int64_t strides[kMaxDims];
  elementStrides(x, strides);
  for (int d = 0; d < lead; ++d) {
    p.inShape[d] = 1;
    p.inStride[d] = 0;
  }
  for (int d = 0; d < x.ndim; ++d) {
    p.inShape[lead + d] = x.shape[d];
    p.inStride[lead + d] = strides[d] * elemBytes(x);
  }
}

void setOutput(GatherPlan &p, const DLTensor &out) {
  int64_t strides[kMaxDims];
  elementStrides(out, strides);
  p.ndim = out.ndim;
  for (int d = 0; d < out.ndim; ++d) {
    p.outShape[d] = out.shape[d];
    p.outStride[d] = strides[d] * elemBytes(out);
  }
}

int repeat(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.repeat", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx) || ctx.checkRank(ctx.in(0), "input") ||
      ctx.checkRank(ctx.out(0), "output"))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  int64_t reps = 0, axis = 0;
  if (!ctx.intAttr(0, "repeats", 0, reps))
    return 1;
  if (reps < 0)
    return ctx.fail("repeats must not be negative, got " + std::to_string(reps));
  GatherPlan p{};
  p.reps = reps;
  setInput(p, x, 0);
  p.inNdim = x.ndim;
  std::vector<int64_t> shape(x.shape, x.shape + x.ndim);
  if (!ctx.hasAttr(1)) {
    p.mode = GatherMode::RepeatFlat;
    if (expectShape(ctx, out, {numel(x) * reps}))
      return 1;
  } else {
    if (!ctx.intAttr(1, "axis", 0, axis))
      return 1;
    if (axis < -x.ndim || axis >= x.ndim)
      return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                      std::to_string(x.ndim));
    p.mode = GatherMode::RepeatAxis;
    p.axis = int(axis < 0 ? axis + x.ndim : axis);
    shape[p.axis] *= reps;
    if (expectShape(ctx, out, shape))
      return 1;
  }
  setOutput(p, out);
  return launchGather(ctx, p);
}

int tile(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.tile", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx) || ctx.checkRank(ctx.out(0), "output"))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  std::vector<int64_t> reps;
  bool set = false;
  if (!ctx.intsAttr(0, "repeats", reps, set))
    return 1;
  for (int64_t r : reps)
    if (r < 0)
      return ctx.fail("repeats " + shapeStr(reps.data(), int(reps.size())) +
                      " must not be negative");
  int rank = std::max(x.ndim, int(reps.size()));
  if (rank > kMaxDims)
    return ctx.fail("on CUDA, takes at most " + std::to_string(kMaxDims) + " dims");
  reps.insert(reps.begin(), size_t(rank) - reps.size(), 1);
  GatherPlan p{};
  p.mode = GatherMode::Tile;
  setInput(p, x, rank - x.ndim);
  std::vector<int64_t> shape;
  shape.resize(size_t(rank));
  for (int d = 0; d < rank; ++d)
    shape[d] = p.inShape[d] * reps[d];
  if (expectShape(ctx, out, shape))
    return 1;
  setOutput(p, out);
  return launchGather(ctx, p);
}

int flip(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.flip", err);
  if (ctx.checkArity(1, 1) || sameDType(ctx) || ctx.checkRank(ctx.in(0), "input"))
    return 1;
  const DLTensor &x = ctx.in(0);
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis))
    return 1;
  if (axis < -x.ndim || axis >= x.ndim)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(x.ndim));
  int a = int(axis < 0 ? axis + x.ndim : axis);
  int64_t strides[kMaxDims];
  elementStrides(x, strides);
  DLTensor view = x;
  view.strides = strides;
  int64_t n = x.shape[a];
  if (n > 1) {
    view.byte_offset += uint64_t((n - 1) * strides[a] * elemBytes(x));
    strides[a] = -strides[a];
  }
  return convertInto(ctx, view, true);
}

//===----------------------------------------------------------------------===//
// dynamic_strided_slice (host form)
//===----------------------------------------------------------------------===//

/// One integer of a 1-D tensor read back to the host.
int64_t hostInt(const std::vector<char> &bytes, const DLTensor &t, int64_t i, int64_t stride) {
  const char *p = bytes.data() + i * stride * elemBytes(t);
  switch (scalarTypeOf(t.dtype)) {
  case ScalarType::Int8:
    return *reinterpret_cast<const int8_t *>(p);
  case ScalarType::Int16:
    return *reinterpret_cast<const int16_t *>(p);
  case ScalarType::Int32:
    return *reinterpret_cast<const int32_t *>(p);
  case ScalarType::UInt8:
    return *reinterpret_cast<const uint8_t *>(p);
  default:
    return *reinterpret_cast<const int64_t *>(p);
  }
}

using graft::kernels::sliceAxis;

/// The view of x that begin/end/strides (read back from the device)
/// describe: shape, element strides and byte offset. Nonzero after a fail.
int dynamicSlice(Ctx &ctx, int64_t *shape, int64_t *strides, uint64_t &offset) {
  const DLTensor &x = ctx.in(0);
  const char *names[] = {"begin", "end", "strides"};
  int64_t len = -1;
  for (int i = 1; i < 4; ++i) {
    const DLTensor &p = ctx.in(i);
    ScalarType t = scalarTypeOf(p.dtype);
    if (t == ScalarType::Bool || isFloatType(t))
      return ctx.fail(std::string(names[i - 1]) + " must be integers, got " + dtypeName(p.dtype));
    if (p.ndim != 1 || (len >= 0 && p.shape[0] != len) || p.shape[0] > x.ndim)
      return ctx.fail("begin, end and strides must be 1-D of one length up to the rank " +
                      std::to_string(x.ndim) + ", got " + names[i - 1] + " of shape " +
                      shapeStr(p));
    len = p.shape[0];
  }
  if (int rc = ctx.hostRead("begin, end and strides"))
    return rc;
  std::array<std::vector<char>, 3> bytes;
  std::array<int64_t, 3> step{};
  for (int i = 0; i < 3; ++i) {
    const DLTensor &p = ctx.in(i + 1);
    int64_t s[1] = {1};
    elementStrides(p, s);
    step[i] = s[0];
    bytes[i].resize(size_t(len > 0 ? ((len - 1) * s[0] + 1) * elemBytes(p) : 0));
    if (bytes[i].empty())
      continue;
    cudaError_t e = cudaMemcpyAsync(bytes[i].data(), dataOf(p), bytes[i].size(),
                                    cudaMemcpyDeviceToHost, ctx.stream());
    if (e)
      return ctx.failCuda("cudaMemcpyAsync", e);
  }
  if (cudaError_t e = cudaStreamSynchronize(ctx.stream()))
    return ctx.failCuda("cudaStreamSynchronize", e);
  elementStrides(x, strides);
  for (int d = 0; d < x.ndim; ++d)
    shape[d] = x.shape[d];
  int64_t off = 0;
  for (int64_t d = 0; d < len; ++d) {
    int64_t st = hostInt(bytes[2], ctx.in(3), d, step[2]);
    if (st == 0)
      return ctx.fail("stride of axis " + std::to_string(d) + " is 0");
    auto [b, n] = sliceAxis(shape[d], hostInt(bytes[0], ctx.in(1), d, step[0]),
                            hostInt(bytes[1], ctx.in(2), d, step[1]), st);
    if (n > 0)
      off += b * strides[d];
    shape[d] = n;
    if (n > 1)
      strides[d] *= st;
  }
  offset = uint64_t(off * elemBytes(x));
  return 0;
}

int dynamicSliceShape(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.host.dynamic_strided_slice_count", err);
  if (ctx.checkArity(4, 1) || ctx.checkRank(ctx.in(0), "input"))
    return 1;
  const DLTensor &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != ScalarType::Int64)
    return ctx.fail("output 0 must be int64, got " + dtypeName(out.dtype));
  if (expectShape(ctx, out, {ctx.in(0).ndim}))
    return 1;
  int64_t shape[kMaxDims], strides[kMaxDims];
  uint64_t offset = 0;
  if (int rc = dynamicSlice(ctx, shape, strides, offset))
    return rc;
  int64_t step[1] = {1};
  elementStrides(out, step);
  for (int d = 0; d < ctx.in(0).ndim; ++d) {
    cudaError_t e = cudaMemcpyAsync(dataOf(out) + d * step[0] * 8, &shape[d], 8,
                                    cudaMemcpyHostToDevice, ctx.stream());
    if (e)
      return ctx.failCuda("cudaMemcpyAsync", e);
  }
  // The shape lives on this stack frame: wait until it is copied.
  if (cudaError_t e = cudaStreamSynchronize(ctx.stream()))
    return ctx.failCuda("cudaStreamSynchronize", e);
  return 0;
}

int dynamicSliceFill(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.host.dynamic_strided_slice", err);
  if (ctx.checkArity(4, 1) || sameDType(ctx) || ctx.checkRank(ctx.in(0), "input"))
    return 1;
  int64_t shape[kMaxDims], strides[kMaxDims];
  uint64_t offset = 0;
  if (int rc = dynamicSlice(ctx, shape, strides, offset))
    return rc;
  DLTensor view = ctx.in(0);
  view.shape = shape;
  view.strides = strides;
  view.byte_offset += offset;
  return convertInto(ctx, view, true);
}

//===----------------------------------------------------------------------===//
// quantize, dequantize
//===----------------------------------------------------------------------===//

/// TIR's max(min(v, hi), lo) for floats: a NaN compares false and takes hi.
template <class C> __device__ inline C saturate(C v, C lo, C hi) {
  v = v < hi ? v : hi;
  return v > lo ? v : lo;
}

struct QdqArgs {
  bool quantize, toInt, intSub, clip;
  double lo, hi;
};

template <class OutT, class C>
__global__ void qdqKernel(Operands<4> ops, char *out, int64_t n, QdqArgs q) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  C lo = C(q.lo), hi = C(q.hi);
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[4];
    ops.idx.offsets(i, off);
    const char *x = ops.in[0] + off[1], *s = ops.in[1] + off[2], *z = ops.in[2] + off[3];
    C v;
    if (q.quantize) {
      v = loadAs<C>(x, ops.type[0]) / loadAs<C>(s, ops.type[1]);
      if (q.toInt)
        v = rint(v); // Half to even.
      v = saturate<C>(v + loadAs<C>(z, ops.type[2]), lo, hi);
    } else {
      C sub = q.intSub ? C(int32_t(uint32_t(loadAs<int32_t>(x, ops.type[0])) -
                                   uint32_t(loadAs<int32_t>(z, ops.type[2]))))
                       : loadAs<C>(x, ops.type[0]) - loadAs<C>(z, ops.type[2]);
      v = sub * loadAs<C>(s, ops.type[1]);
      if (q.clip)
        v = saturate<C>(v, lo, hi);
    }
    storeElem<OutT>(reinterpret_cast<OutT *>(out + off[0]), castTo<Compute<OutT>>(v));
  }
}

/// The finite range of a dtype.
std::pair<double, double> rangeOf(ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
    return {0, 1};
  case ScalarType::Int8:
    return {-128, 127};
  case ScalarType::Int16:
    return {-32768, 32767};
  case ScalarType::Int32:
    return {double(INT32_MIN), double(INT32_MAX)};
  case ScalarType::Int64:
    return {double(INT64_MIN), double(INT64_MAX)};
  case ScalarType::UInt8:
    return {0, 255};
  case ScalarType::Float16:
    return {-65504.0, 65504.0};
  case ScalarType::BFloat16:
    return {-3.3895313892515355e38, 3.3895313892515355e38};
  case ScalarType::Float32:
    return {-double(FLT_MAX), double(FLT_MAX)};
  default:
    return {-DBL_MAX, DBL_MAX};
  }
}

/// scale or zero_point as an operand over the data's shape: a scalar (one
/// element) broadcasts, a vector strides along `axis`.
int perAxis(Ctx &ctx, int i, const DLTensor &data, int axis, DLTensor &view, int64_t *shape,
            int64_t *strides) {
  const DLTensor &p = ctx.in(i);
  view = p;
  view.ndim = data.ndim;
  view.shape = shape;
  view.strides = strides;
  for (int d = 0; d < data.ndim; ++d) {
    shape[d] = 1;
    strides[d] = 0;
  }
  if (numel(p) == 1 && p.ndim <= 1)
    return 0;
  int64_t len = data.ndim ? data.shape[axis] : 1;
  if (p.ndim != 1 || p.shape[0] != len)
    return ctx.fail(std::string(i == 1 ? "scale" : "zero_point") + " must be a scalar or have " +
                    std::to_string(len) + " elements (dim " + std::to_string(axis) +
                    " of the data), got shape " + shapeStr(p));
  int64_t s[1] = {1};
  elementStrides(p, s);
  shape[axis] = len;
  strides[axis] = s[0];
  return 0;
}

template <bool Quantize> int qdq(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Quantize ? "graft.quantize" : "graft.dequantize", err);
  if (ctx.checkArity(3, 1) || ctx.checkRank(ctx.in(0), "input"))
    return 1;
  const DLTensor &data = ctx.in(0), &out = ctx.out(0);
  ScalarType dt = scalarTypeOf(data.dtype), st = scalarTypeOf(ctx.in(1).dtype),
             zt = scalarTypeOf(ctx.in(2).dtype), ot = scalarTypeOf(out.dtype);
  if (Quantize && (!isFloatType(dt) || !isFloatType(st)))
    return ctx.fail("data and scale must be floating-point, got " + dtypeName(data.dtype) +
                    " and " + dtypeName(ctx.in(1).dtype));
  if (Quantize && ot == ScalarType::Bool)
    return ctx.fail("output must be an integer or floating-point dtype, got bool");
  if (!Quantize && (dt == ScalarType::Bool || zt == ScalarType::Bool || !isFloatType(st)))
    return ctx.fail("data and zero_point must be numbers and scale floating-point, got " +
                    dtypeName(data.dtype) + ", " + dtypeName(ctx.in(2).dtype) + " and " +
                    dtypeName(ctx.in(1).dtype));
  if (!Quantize && !isFloatType(ot))
    return ctx.fail("output must be floating-point, got " + dtypeName(out.dtype));
  int64_t axis = -1;
  if (!ctx.intAttr(0, "axis", -1, axis))
    return 1;
  int rank = std::max(data.ndim, 1);
  if (axis < -rank || axis >= rank)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(rank));
  int a = int(axis < 0 ? axis + rank : axis);
  if (expectShape(ctx, out, std::vector<int64_t>(data.shape, data.shape + data.ndim)))
    return 1;
  DLTensor sv, zv;
  int64_t sShape[kMaxDims], sStrides[kMaxDims], zShape[kMaxDims], zStrides[kMaxDims];
  if (perAxis(ctx, 1, data, a, sv, sShape, sStrides) ||
      perAxis(ctx, 2, data, a, zv, zShape, zStrides))
    return 1;
  const DLTensor *ins[3] = {&data, &sv, &zv};
  Operands<4> ops;
  if (!makeOperands<4>(ctx, out, ins, ops))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  QdqArgs q{Quantize,
            !isFloatType(ot),
            !isFloatType(dt) && !isFloatType(zt),
            ot != ScalarType::Float32 && ot != ScalarType::Float64,
            0,
            0};
  std::tie(q.lo, q.hi) = rangeOf(ot);
  bool wide = Quantize && dt == ScalarType::Float64;
  unsigned grid = gridFor(n, kThreads);
  dispatch(ot, [&](auto tag) {
    using OutT = decltype(tag);
    if (wide)
      qdqKernel<OutT, double><<<grid, kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n, q);
    else
      qdqKernel<OutT, float><<<grid, kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n, q);
  });
  return ctx.checkLaunch("qdqKernel");
}

//===----------------------------------------------------------------------===//
// layout_transform
//===----------------------------------------------------------------------===//

namespace indexmap = graft::kernels::indexmap;

/// The index map's plan (kernels/IndexMapPlan.h, checked on the host) and
/// both tensors' extents and byte strides.
struct LayoutTransformPlan {
  indexmap::IndexMapPlan map;
  int inNdim, outNdim;
  int64_t inShape[kMaxDims], inStride[kMaxDims];
  int64_t outShape[kMaxDims], outStride[kMaxDims];
};

/// Byte offset of row-major flat index i of a strided tensor.
__device__ inline int64_t stridedOffset(int64_t i, int ndim, const int64_t *shape,
                                        const int64_t *stride) {
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    int64_t q = i / shape[d];
    off += (i - q * shape[d]) * stride[d];
    i = q;
  }
  return off;
}

/// Every output element gets the pad value (its bits, `pad`); the scatter
/// that follows on the stream overwrites the elements the map reaches.
template <class U>
__global__ void padFillKernel(LayoutTransformPlan p, char *out, U pad, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    *reinterpret_cast<U *>(out + stridedOffset(i, p.outNdim, p.outShape, p.outStride)) = pad;
}

/// One thread per input element: its index through the map gives the
/// output element it is copied to. An index outside the output (a map that
/// does not fit the output's shape) is skipped.
template <class U>
__global__ void layoutScatterKernel(LayoutTransformPlan p, const char *in, char *out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t src[kMaxDims], dst[kMaxDims], rest = i, from = 0;
    for (int d = p.inNdim - 1; d >= 0; --d) {
      int64_t q = rest / p.inShape[d];
      src[d] = rest - q * p.inShape[d];
      from += src[d] * p.inStride[d];
      rest = q;
    }
    indexmap::applyPlan(p.map, src, dst);
    int64_t to = 0;
    bool inside = true;
    for (int d = 0; d < p.outNdim; ++d) {
      inside = inside && dst[d] >= 0 && dst[d] < p.outShape[d];
      to += dst[d] * p.outStride[d];
    }
    if (inside)
      *reinterpret_cast<U *>(out + to) = *reinterpret_cast<const U *>(in + from);
  }
}

/// pad_value (an int, float or bool attr; unset: 0) as `T`.
template <class T> T padAs(const Ctx &ctx) {
  bool isFloat = ctx.hasAttr(1) && ctx.attr(1).kind == GRAFT_CUDA_ATTR_FLOAT;
  double f = isFloat ? ctx.attr(1).f : 0.0;
  int64_t i = !isFloat && ctx.hasAttr(1) ? ctx.attr(1).i : 0;
  if constexpr (std::is_same_v<T, bool>)
    return isFloat ? f != 0.0 : i != 0;
  else if constexpr (std::is_same_v<T, __half>)
    return __double2half(isFloat ? f : double(i));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __double2bfloat16(isFloat ? f : double(i));
  else if constexpr (std::is_floating_point_v<T>)
    return T(isFloat ? f : double(i));
  else
    return isFloat ? T(f) : T(i);
}

/// The gather form (kernels/LayoutGather.h): each thread writes V
/// consecutive output elements (one store of V * sizeof(U) bytes), reading
/// each from its input element or taking the pad value. The plan's tables
/// are copied to shared memory once per block; blocks stride over the
/// output.
template <class U, int KT, int V>
__global__ void __launch_bounds__(kThreads)
    layoutGatherKernel(const __grid_constant__ indexmap::GatherPlan p, const U *__restrict__ in,
                       U *__restrict__ out, uint32_t vectors, U pad) {
  awaitUpstream();
  __shared__ int32_t table[indexmap::kGatherTable];
  for (int i = threadIdx.x; i < p.tableLen; i += blockDim.x)
    table[i] = p.table[i];
  __syncthreads();
  uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += step) {
    uint32_t off[V];
    bool hit[V];
    indexmap::gatherOffsets<KT, V>(p, table, v * V, off, hit);
    Vec<U, V> r;
#pragma unroll
    for (int e = 0; e < V; ++e)
      r.v[e] = hit[e] ? in[off[e]] : pad;
    reinterpret_cast<Vec<U, V> *>(out)[v] = r;
  }
}

/// Blocks that fill every SM once at full occupancy (queried once; 1056,
/// the H200's, if the query fails).
unsigned gatherBlocks() {
  static const unsigned blocks = [] {
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        sms <= 0)
      sms = 132;
    cudaGetLastError(); // A failed query is not an error of this launch.
    return unsigned(sms) * (2048 / kThreads);
  }();
  return blocks;
}

/// The gather plan of this call, built on the host once per distinct
/// (program, shapes, strides): a layout_transform in a loop or a replayed
/// program keeps its plan.
const indexmap::GatherPlan *gatherPlanFor(const std::vector<int64_t> &program,
                                          const LayoutTransformPlan &p, int64_t elem) {
  struct Cached {
    std::vector<int64_t> key;
    bool ok = false;
    indexmap::GatherPlan plan;
  };
  thread_local Cached cache[4]; // filled round robin
  thread_local unsigned next = 0;
  std::vector<int64_t> key = program;
  key.push_back(p.inNdim);
  key.push_back(p.outNdim);
  key.insert(key.end(), p.inShape, p.inShape + p.inNdim);
  key.insert(key.end(), p.inStride, p.inStride + p.inNdim);
  key.insert(key.end(), p.outShape, p.outShape + p.outNdim);
  key.push_back(elem);
  for (Cached &c : cache)
    if (c.key == key)
      return c.ok ? &c.plan : nullptr;
  Cached &c = cache[next++ % 4];
  int64_t strides[kMaxDims];
  bool whole = true;
  for (int d = 0; d < p.inNdim; ++d) {
    whole = whole && p.inStride[d] % elem == 0;
    strides[d] = p.inStride[d] / elem;
  }
  c.key = std::move(key);
  c.ok = whole && indexmap::buildGatherPlan(p.map, p.inNdim, p.inShape, strides, p.outNdim,
                                            p.outShape, c.plan)
                      .empty();
  return c.ok ? &c.plan : nullptr;
}

template <class U, int KT, int V>
int launchGather(Ctx &ctx, const indexmap::GatherPlan &g, U pad, int64_t nOut) {
  uint32_t vectors = uint32_t(nOut / V);
  unsigned blocks = unsigned((int64_t(vectors) + kThreads - 1) / kThreads);
  blocks = std::min(blocks, gatherBlocks());
  layoutGatherKernel<U, KT, V><<<blocks, kThreads, 0, ctx.stream()>>>(
      g, reinterpret_cast<const U *>(dataOf(ctx.in(0))), reinterpret_cast<U *>(dataOf(ctx.out(0))),
      vectors, pad);
  return ctx.checkLaunch("layoutGatherKernel");
}

template <class U, int KT>
int gatherLayoutRank(Ctx &ctx, const indexmap::GatherPlan &g, U pad, int64_t nOut) {
  constexpr int V = sizeof(U) >= 16 ? 1 : int(16 / sizeof(U));
  uint32_t last = g.shape[KT - 1];
  const void *out = dataOf(ctx.out(0));
  if (last % V == 0 && aligned(out, sizeof(U) * V))
    return launchGather<U, KT, V>(ctx, g, pad, nOut);
  if constexpr (V > 4) // NCHW4c of 8- and 16-bit data: 4 elements a thread
    if (last % 4 == 0 && aligned(out, sizeof(U) * 4))
      return launchGather<U, KT, 4>(ctx, g, pad, nOut);
  return launchGather<U, KT, 1>(ctx, g, pad, nOut);
}

/// Runs the gather form with V = 16 bytes of elements a thread where V
/// divides the last output extent (and the output is aligned to it), else
/// 4 (for 8- and 16-bit data) or one element a thread; KT, the plan's
/// padded rank (4, 6 or 8), fixes how many dims each thread decomposes.
template <class U> int gatherLayout(Ctx &ctx, const indexmap::GatherPlan &g, U pad) {
  int64_t nOut = numel(ctx.out(0));
  if (g.ndim == 4)
    return gatherLayoutRank<U, 4>(ctx, g, pad, nOut);
  if (g.ndim == 6)
    return gatherLayoutRank<U, 6>(ctx, g, pad, nOut);
  return gatherLayoutRank<U, 8>(ctx, g, pad, nOut);
}

template <class U>
int launchLayoutTransform(Ctx &ctx, const std::vector<int64_t> &program,
                          const LayoutTransformPlan &p, U pad) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  // The gather form for compact outputs whose map it inverts;
  // GRAFT_CUDA_LAYOUT_TRANSFORM=scatter forces the interpreter (to compare).
  const char *force = std::getenv("GRAFT_CUDA_LAYOUT_TRANSFORM");
  if (!(force && std::strcmp(force, "scatter") == 0) && isCompact(out) && numel(out) > 0)
    if (const indexmap::GatherPlan *g = gatherPlanFor(program, p, int64_t(sizeof(U))))
      return gatherLayout<U>(ctx, *g, pad);
  int64_t nIn = numel(x), nOut = numel(out);
  // Without padding an injective map reaches every output element.
  if (nOut > nIn) {
    padFillKernel<U>
        <<<gridFor(nOut, kThreads), kThreads, 0, ctx.stream()>>>(p, dataOf(out), pad, nOut);
    if (int rc = ctx.checkLaunch("padFillKernel"))
      return rc;
  }
  if (nIn == 0)
    return 0;
  layoutScatterKernel<U>
      <<<gridFor(nIn, kThreads), kThreads, 0, ctx.stream()>>>(p, dataOf(x), dataOf(out), nIn);
  return ctx.checkLaunch("layoutScatterKernel");
}

/// The CPU kernel's semantics (kernels/cpu/Movement.cpp) by the same forward
/// scatter: the pad value first (only when the output has more elements
/// than the input), then one thread per input element. A map that sends
/// two inputs to one output element is refused by the CPU kernel (which
/// marks what it writes); here the later write wins.
int layoutTransform(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.layout_transform", err);
  if (ctx.checkArity(1, 1) || ctx.checkRank(ctx.in(0), "input") ||
      ctx.checkRank(ctx.out(0), "output") || sameDType(ctx))
    return 1;
  std::vector<int64_t> program;
  bool set = false;
  if (!ctx.intsAttr(0, "index_map", program, set))
    return 1;
  if (!set)
    return ctx.fail("attr 'index_map' is not set");
  if (ctx.hasAttr(1) && ctx.attr(1).kind != GRAFT_CUDA_ATTR_INT &&
      ctx.attr(1).kind != GRAFT_CUDA_ATTR_FLOAT && ctx.attr(1).kind != GRAFT_CUDA_ATTR_BOOL)
    return ctx.fail("pad_value must be a number");
  LayoutTransformPlan p{};
  std::string why = indexmap::decodePlan(program.data(), program.size(), p.map);
  if (!why.empty())
    return ctx.fail(why);
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (p.map.numIn != x.ndim || p.map.numOut != out.ndim)
    return ctx.fail("the index map takes " + std::to_string(p.map.numIn) + " indices to " +
                    std::to_string(p.map.numOut) + ", but the input has rank " +
                    std::to_string(x.ndim) + " and the output rank " + std::to_string(out.ndim));
  p.inNdim = x.ndim;
  p.outNdim = out.ndim;
  elementStrides(x, p.inStride);
  elementStrides(out, p.outStride);
  for (int d = 0; d < x.ndim; ++d) {
    p.inShape[d] = x.shape[d];
    p.inStride[d] *= elemBytes(x);
  }
  for (int d = 0; d < out.ndim; ++d) {
    p.outShape[d] = out.shape[d];
    p.outStride[d] *= elemBytes(out);
  }
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    T pad = padAs<T>(ctx);
    if constexpr (sizeof(T) == 1) {
      uint8_t bits;
      std::memcpy(&bits, &pad, 1);
      return launchLayoutTransform<uint8_t>(ctx, program, p, bits);
    } else if constexpr (sizeof(T) == 2) {
      uint16_t bits;
      std::memcpy(&bits, &pad, 2);
      return launchLayoutTransform<uint16_t>(ctx, program, p, bits);
    } else if constexpr (sizeof(T) == 4) {
      uint32_t bits;
      std::memcpy(&bits, &pad, 4);
      return launchLayoutTransform<uint32_t>(ctx, program, p, bits);
    } else {
      uint64_t bits;
      std::memcpy(&bits, &pad, 8);
      return launchLayoutTransform<uint64_t>(ctx, program, p, bits);
    }
  });
}

//===----------------------------------------------------------------------===//
// einsum
//===----------------------------------------------------------------------===//

constexpr int kMaxOperands = 8, kMaxSummed = 8, kLabels = 52;

struct EinsumPlan {
  int nops = 0, nout = 0, nsum = 0;
  const char *data[kMaxOperands] = {};
  int64_t outShape[kMaxDims] = {}, outStride[kMaxDims] = {}; ///< Output's, bytes.
  int64_t sumShape[kMaxSummed] = {};
  int64_t opOut[kMaxOperands][kMaxDims] = {};   ///< Operand byte strides per output label.
  int64_t opSum[kMaxOperands][kMaxSummed] = {}; ///< Per summed label.
  int64_t sumTotal = 1;
};

int labelOf(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  if (c >= 'A' && c <= 'Z')
    return 26 + (c - 'A');
  return -1;
}

/// The CPU kernel's parse (kernels/cpu/Einsum.cpp) into the plan.
int planEinsum(Ctx &ctx, const std::string &s, EinsumPlan &p) {
  std::array<int64_t, kLabels> extent;
  extent.fill(-1);
  std::array<int, kLabels> uses{}, role{};
  std::vector<std::array<int64_t, kLabels>> strides(size_t(ctx.numInputs()));
  for (auto &row : strides)
    row.fill(0);
  if (s.find('.') != std::string::npos)
    return ctx.fail("subscripts with an ellipsis are not supported: \"" + s + "\"");
  size_t arrow = s.find("->");
  std::string lhs = s.substr(0, arrow);
  int operand = 0, dim = 0;
  auto endOperand = [&]() {
    if (operand < ctx.numInputs() && dim != ctx.in(operand).ndim)
      return ctx.fail("operand " + std::to_string(operand) + " has rank " +
                      std::to_string(ctx.in(operand).ndim) + " but its subscript has " +
                      std::to_string(dim) + " labels");
    ++operand;
    dim = 0;
    return 0;
  };
  for (char c : lhs) {
    if (c == ' ')
      continue;
    if (c == ',') {
      if (endOperand())
        return 1;
      continue;
    }
    int l = labelOf(c);
    if (l < 0)
      return ctx.fail(std::string("invalid subscript character '") + c + "'");
    if (operand >= ctx.numInputs())
      return ctx.fail("has more subscripts than its " + std::to_string(ctx.numInputs()) +
                      " operands");
    const DLTensor &v = ctx.in(operand);
    if (dim >= v.ndim)
      return ctx.fail("operand " + std::to_string(operand) + " has rank " + std::to_string(v.ndim) +
                      " but its subscript has more labels");
    if (extent[l] >= 0 && extent[l] != v.shape[dim])
      return ctx.fail(std::string("label '") + c + "' has extents " + std::to_string(extent[l]) +
                      " and " + std::to_string(v.shape[dim]));
    extent[l] = v.shape[dim];
    int64_t es[kMaxDims];
    elementStrides(v, es);
    strides[operand][l] += es[dim] * elemBytes(v);
    ++uses[l];
    ++dim;
  }
  if (endOperand())
    return 1;
  if (operand != ctx.numInputs())
    return ctx.fail("has " + std::to_string(operand) + " subscripts for " +
                    std::to_string(ctx.numInputs()) + " operands");
  std::vector<int> outLabels, sumLabels;
  if (arrow != std::string::npos) {
    for (char c : s.substr(arrow + 2)) {
      if (c == ' ')
        continue;
      int l = labelOf(c);
      if (l < 0 || extent[l] < 0)
        return ctx.fail(std::string("output label '") + c + "' is not an input label");
      if (role[l])
        return ctx.fail(std::string("output label '") + c + "' repeats");
      role[l] = 1;
      outLabels.push_back(l);
    }
  } else {
    for (int pass = 0; pass < 2; ++pass)
      for (int l = pass ? 0 : 26; l < (pass ? 26 : kLabels); ++l)
        if (uses[l] == 1) {
          role[l] = 1;
          outLabels.push_back(l);
        }
  }
  for (int l = 0; l < kLabels; ++l)
    if (extent[l] >= 0 && !role[l])
      sumLabels.push_back(l);
  if (ctx.numInputs() > kMaxOperands || int(outLabels.size()) > kMaxDims ||
      int(sumLabels.size()) > kMaxSummed)
    return ctx.fail("on CUDA, takes at most " + std::to_string(kMaxOperands) + " operands, " +
                    std::to_string(kMaxDims) + " output labels and " + std::to_string(kMaxSummed) +
                    " summed labels");
  const DLTensor &out = ctx.out(0);
  std::vector<int64_t> shape;
  for (int l : outLabels)
    shape.push_back(extent[l]);
  if (expectShape(ctx, out, shape))
    return 1;
  int64_t os[kMaxDims];
  elementStrides(out, os);
  p.nops = ctx.numInputs();
  p.nout = int(outLabels.size());
  p.nsum = int(sumLabels.size());
  for (int i = 0; i < p.nout; ++i) {
    p.outShape[i] = extent[outLabels[i]];
    p.outStride[i] = os[i] * elemBytes(out);
  }
  for (int i = 0; i < p.nsum; ++i) {
    p.sumShape[i] = extent[sumLabels[i]];
    p.sumTotal *= p.sumShape[i];
  }
  for (int k = 0; k < p.nops; ++k) {
    p.data[k] = dataOf(ctx.in(k));
    for (int i = 0; i < p.nout; ++i)
      p.opOut[k][i] = strides[k][outLabels[i]];
    for (int i = 0; i < p.nsum; ++i)
      p.opSum[k][i] = strides[k][sumLabels[i]];
  }
  return 0;
}

/// A product that is never contracted with the following add into a fused
/// multiply-add, so the sums round as the CPU kernel's do.
template <class A> __device__ inline A mulNoFma(A a, A b) {
  if constexpr (std::is_same_v<A, float>)
    return __fmul_rn(a, b);
  else if constexpr (std::is_same_v<A, double>)
    return __dmul_rn(a, b);
  else
    return kernels::scalar::mulC<A>(a, b);
}

template <class T> __global__ void einsumKernel(EinsumPlan p, char *out, int64_t n) {
  awaitUpstream();
  using A = Compute<T>;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const char *base[kMaxOperands];
    for (int k = 0; k < p.nops; ++k)
      base[k] = p.data[k];
    int64_t rest = i, dst = 0;
    for (int d = p.nout - 1; d >= 0; --d) {
      int64_t q = rest / p.outShape[d], r = rest - q * p.outShape[d];
      rest = q;
      dst += r * p.outStride[d];
      for (int k = 0; k < p.nops; ++k)
        base[k] += r * p.opOut[k][d];
    }
    A acc(0);
    for (int64_t s = 0; s < p.sumTotal; ++s) {
      int64_t off[kMaxOperands] = {};
      int64_t srest = s;
      for (int d = p.nsum - 1; d >= 0; --d) {
        int64_t q = srest / p.sumShape[d], r = srest - q * p.sumShape[d];
        srest = q;
        for (int k = 0; k < p.nops; ++k)
          off[k] += r * p.opSum[k][d];
      }
      A prod = loadElem<T>(reinterpret_cast<const T *>(base[0] + off[0]));
      for (int k = 1; k < p.nops; ++k)
        prod = mulNoFma<A>(prod, loadElem<T>(reinterpret_cast<const T *>(base[k] + off[k])));
      acc = kernels::scalar::addC(acc, prod);
    }
    storeElem<T>(reinterpret_cast<T *>(out + dst), acc);
  }
}

int einsum(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.einsum", err);
  if (ctx.numInputs() < 1)
    return ctx.fail("expects at least 1 inputs, got 0");
  if (ctx.checkArity(ctx.numInputs(), 1))
    return 1;
  if (!ctx.hasAttr(0) || ctx.attr(0).kind != GRAFT_CUDA_ATTR_STRING)
    return ctx.fail("attr 'subscripts' must be a string");
  ScalarType t = scalarTypeOf(ctx.in(0).dtype);
  for (int i = 1; i < ctx.numInputs(); ++i)
    if (scalarTypeOf(ctx.in(i).dtype) != t)
      return ctx.fail("input " + std::to_string(i) + " has dtype " + dtypeName(ctx.in(i).dtype) +
                      ", expected " + dtypeName(ctx.in(0).dtype));
  if (sameDType(ctx))
    return 1;
  if (t == ScalarType::Bool)
    return ctx.fail("does not take bool");
  for (int i = 0; i < ctx.numInputs(); ++i)
    if (ctx.checkRank(ctx.in(i), "input"))
      return 1;
  EinsumPlan p;
  if (planEinsum(ctx, ctx.attr(0).s, p))
    return 1;
  int64_t n = numel(ctx.out(0));
  if (n == 0)
    return 0;
  dispatch(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>)
      einsumKernel<T>
          <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(p, dataOf(ctx.out(0)), n);
  });
  return ctx.checkLaunch("einsumKernel");
}

const char *const kRepeatAttrs[] = {"repeats", "axis"};
const char *const kTileAttrs[] = {"repeats"};
const char *const kFlipAttrs[] = {"axis"};
const char *const kLayoutTransformAttrs[] = {"index_map", "pad_value"};
const char *const kQdqAttrs[] = {"axis"};
const char *const kEinsumAttrs[] = {"subscripts"};

} // namespace

void addLateOpKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.repeat", 1, 1, kRepeatAttrs, 2, repeat, nullptr});
  out.push_back({"graft.tile", 1, 1, kTileAttrs, 1, tile, nullptr});
  out.push_back({"graft.flip", 1, 1, kFlipAttrs, 1, flip, nullptr});
  out.push_back(
      {"graft.layout_transform", 1, 1, kLayoutTransformAttrs, 2, layoutTransform, nullptr});
  out.push_back({"graft.host.dynamic_strided_slice", 4, 1, nullptr, 0, dynamicSliceFill, nullptr});
  out.push_back(
      {"graft.host.dynamic_strided_slice_count", 4, 1, nullptr, 0, dynamicSliceShape, nullptr});
  out.push_back({"graft.quantize", 3, 1, kQdqAttrs, 1, qdq<true>, nullptr});
  out.push_back({"graft.dequantize", 3, 1, kQdqAttrs, 1, qdq<false>, nullptr});
  out.push_back({"graft.einsum", -1, 1, kEinsumAttrs, 1, einsum, nullptr});
}

} // namespace graft::cuda
