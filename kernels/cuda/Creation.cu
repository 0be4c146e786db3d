//===- kernels/cuda/Creation.cu - astype, full, zeros, ones, arange, permute_dims ===//
//
// Conversions load each element as the output's compute type with the CPU
// kernels' castTo rules and round once on the store, so astype (and full,
// which is astype of one broadcast element) gives the CPU's bits.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Elementwise.cuh"

namespace graft::cuda {
namespace {

struct Identity {
  template <class C> __device__ static C apply(C x) { return x; }
};

} // namespace

/// Output 0 <- input `in` converted, broadcast to the output's shape.
int convertInto(Ctx &ctx, const DLTensor &in, bool exact) {
  const DLTensor &out = ctx.out(0);
  const DLTensor *ins[] = {&in};
  Operands<2> ops;
  if (!makeOperands<2>(ctx, out, ins, ops, exact))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    ewGeneral<Identity, Compute<T>, T, 2>
        <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n);
    return ctx.checkLaunch("ewGeneral");
  });
}

namespace {

int astype(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.astype", err);
  if (ctx.checkArity(1, 1))
    return 1;
  return convertInto(ctx, ctx.in(0), true);
}

/// The fill value (input `i`) must hold one element.
int fillFrom(Ctx &ctx, int i) {
  if (numel(ctx.in(i)) != 1)
    return ctx.fail("fill value must hold one element, got shape " + shapeStr(ctx.in(i)));
  DLTensor one = ctx.in(i);
  one.ndim = 0; // One element, broadcast to every output element.
  return convertInto(ctx, one, false);
}

int full(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.full", err);
  if (ctx.checkArity(1, 1))
    return 1;
  return fillFrom(ctx, 0);
}

int fullLike(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.full_like", err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (x.ndim != out.ndim || shapeStr(x) != shapeStr(out))
    return ctx.fail("output has shape " + shapeStr(out) + " but the input has " + shapeStr(x));
  return fillFrom(ctx, 1);
}

/// Writes value(i) at flat row-major index i of the output.
template <class T, class Fn>
__global__ void fillKernel(Indexer<1> idx, char *out, int64_t n, Fn fn) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[1];
    idx.offsets(i, off);
    storeElem<T>(reinterpret_cast<T *>(out + off[0]), fn.template operator()<Compute<T>>(i));
  }
}

template <class Fn> int fill(Ctx &ctx, Fn fn) {
  const DLTensor &out = ctx.out(0);
  Indexer<1> idx;
  idx.ndim = out.ndim;
  for (int d = 0; d < out.ndim; ++d)
    idx.shape[d] = out.shape[d];
  elementStrides(out, idx.stride[0]);
  int64_t bytes = (out.dtype.bits + 7) / 8;
  for (int d = 0; d < out.ndim; ++d)
    idx.stride[0][d] *= bytes;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    fillKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(idx, dataOf(out), n, fn);
    return ctx.checkLaunch("fillKernel");
  });
}

template <int Value> struct Constant {
  template <class C> __device__ C operator()(int64_t) const { return castTo<C>(Value); }
};

template <int Value> int constant(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Value ? "graft.ones" : "graft.zeros", err);
  if (ctx.checkArity(0, 1))
    return 1;
  return fill(ctx, Constant<Value>{});
}

template <int Value> int constantLike(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Value ? "graft.ones_like" : "graft.zeros_like", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (x.ndim != out.ndim || shapeStr(x) != shapeStr(out))
    return ctx.fail("output has shape " + shapeStr(out) + " but the input has " + shapeStr(x));
  return fill(ctx, Constant<Value>{});
}

/// start + i*step in int64 (wrapping) when both attrs are ints, else in
/// double, as the CPU kernel.
struct Arange {
  bool ints;
  int64_t istart, istep;
  double start, step;
  template <class C> __device__ C operator()(int64_t i) const {
    if (ints)
      return castTo<C>(int64_t(uint64_t(istart) + uint64_t(istep) * uint64_t(i)));
    return castTo<C>(start + double(i) * step);
  }
};

int arange(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.arange", err);
  if (ctx.checkArity(0, 1))
    return 1;
  if (ctx.out(0).ndim != 1)
    return ctx.fail("output must be 1-D, got shape " + shapeStr(ctx.out(0)));
  Arange a{};
  a.ints = ctx.hasAttr(0) && ctx.hasAttr(1) && ctx.attr(0).kind == GRAFT_CUDA_ATTR_INT &&
           ctx.attr(1).kind == GRAFT_CUDA_ATTR_INT;
  if (!ctx.floatAttr(0, "start", 0.0, a.start) || !ctx.floatAttr(1, "step", 1.0, a.step))
    return 1;
  if (a.ints) {
    a.istart = ctx.attr(0).i;
    a.istep = ctx.attr(1).i;
  }
  return fill(ctx, a);
}

/// permute_dims: a copy of the input seen through permuted strides.
int permuteDims(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.permute_dims", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  if (scalarTypeOf(out.dtype) != scalarTypeOf(x.dtype))
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(x.dtype));
  std::vector<int64_t> axes;
  bool set = false;
  if (!ctx.intsAttr(0, "axes", axes, set))
    return 1;
  if (!set) // Unset: reverse the dims, as numpy's transpose.
    for (int d = x.ndim - 1; d >= 0; --d)
      axes.push_back(d);
  if (int(axes.size()) != x.ndim)
    return ctx.fail("axes " + shapeStr(axes.data(), int(axes.size())) + " do not match rank " +
                    std::to_string(x.ndim));
  bool seen[kMaxDims] = {};
  int64_t strides[kMaxDims], shape[kMaxDims], own[kMaxDims];
  elementStrides(x, own);
  for (int d = 0; d < x.ndim; ++d) {
    int64_t a = axes[d] < 0 ? axes[d] + x.ndim : axes[d];
    if (a < 0 || a >= x.ndim || seen[a])
      return ctx.fail("axes " + shapeStr(axes.data(), int(axes.size())) +
                      " are not a permutation of " + std::to_string(x.ndim) + " dims");
    seen[a] = true;
    shape[d] = x.shape[a];
    strides[d] = own[a];
  }
  DLTensor view = x;
  view.shape = shape;
  view.strides = strides;
  return convertInto(ctx, view, true);
}

const char *const kArangeAttrs[] = {"start", "step"};
const char *const kPermuteAttrs[] = {"axes"};

} // namespace

void addCreationKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.astype", 1, 1, nullptr, 0, astype, nullptr});
  out.push_back({"graft.zeros", 0, 1, nullptr, 0, constant<0>, nullptr});
  out.push_back({"graft.ones", 0, 1, nullptr, 0, constant<1>, nullptr});
  out.push_back({"graft.full", 1, 1, nullptr, 0, full, nullptr});
  out.push_back({"graft.arange", 0, 1, kArangeAttrs, 2, arange, nullptr});
  out.push_back({"graft.zeros_like", 1, 1, nullptr, 0, constantLike<0>, nullptr});
  out.push_back({"graft.ones_like", 1, 1, nullptr, 0, constantLike<1>, nullptr});
  out.push_back({"graft.full_like", 2, 1, nullptr, 0, fullLike, nullptr});
  out.push_back({"graft.permute_dims", 1, 1, kPermuteAttrs, 1, permuteDims, nullptr});
}

} // namespace graft::cuda
