//===- kernels/cuda/Layout.cu - reshape, broadcast_to, strided_slice, where -===//
//
// Layout ops as copies of a strided view (the CPU kernels' approach): the
// view's strides and byte offset say where each output element comes from,
// and the general elementwise kernel copies through them.
//
//===----------------------------------------------------------------------===//

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

/// numpy's slice normalization of one axis: (start, length).
std::pair<int64_t, int64_t> sliceAxis(int64_t n, int64_t begin, int64_t end, int64_t step) {
  auto clampIdx = [&](int64_t i) {
    if (i < 0)
      i += n;
    return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
  };
  int64_t b = clampIdx(begin), e = clampIdx(end);
  int64_t span = step > 0 ? e - b : b - e;
  int64_t mag = step > 0 ? step : -step;
  return {b, span <= 0 ? 0 : (span + mag - 1) / mag};
}

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
    offset += b * strides[a];
    shape[a] = n;
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
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    whereKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n);
    return ctx.checkLaunch("whereKernel");
  });
}

const char *const kAxisAttrs[] = {"axis"};
const char *const kSliceAttrs[] = {"axes", "begin", "end", "strides"};

} // namespace

void addLayoutKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({kReshape, 1, 1, nullptr, 0, reshapeLike<kReshape>, nullptr});
  out.push_back({kFlatten, 1, 1, nullptr, 0, reshapeLike<kFlatten>, nullptr});
  out.push_back({kExpandDims, 1, 1, kAxisAttrs, 1, reshapeLike<kExpandDims>, nullptr});
  out.push_back({kSqueeze, 1, 1, kAxisAttrs, 1, reshapeLike<kSqueeze>, nullptr});
  out.push_back({"graft.broadcast_to", 1, 1, nullptr, 0, broadcastTo, nullptr});
  out.push_back({"graft.strided_slice", 1, 1, kSliceAttrs, 4, stridedSlice, nullptr});
  out.push_back({"graft.where", 3, 1, nullptr, 0, where, nullptr});
}

} // namespace graft::cuda
