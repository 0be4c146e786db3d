//===- kernels/cuda/BatchC.cu - Losses, dropout, channel norms, take grad --===//
//
// nn.nll_loss, grad.nll_loss_backward, nn.cross_entropy_with_logits,
// nn.dropout (inference), nn.group_norm, nn.instance_norm and
// grad.take_backward on compact tensors (the pool gradients live in
// Conv.cu). The results are the CPU kernels' (kernels/cpu/Training.cpp):
// sums and statistics run in float (double for float64) in one fixed
// order, so floats differ from the CPU's double by a few ulp, integers not
// at all. A target or index out of range cannot stop a kernel: the
// element it would write is NaN (losses) or it is skipped (take_backward)
// where the CPU kernel reports an error.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

namespace graft::cuda {
namespace {

constexpr int kThreads = 256;

template <class A> struct AccOf { using type = float; };
template <> struct AccOf<double> { using type = double; };

template <class A> __device__ A blockSum(A v, A *shared) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  __syncthreads();
  if (lane == 0)
    shared[warp] = v;
  __syncthreads();
  A r = lane < warps ? shared[lane] : A(0);
  for (int o = 16; o > 0; o >>= 1)
    r += __shfl_xor_sync(0xffffffffu, r, o);
  return r;
}

__host__ __device__ inline int64_t sizeOf(ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
  case ScalarType::Int8:
  case ScalarType::UInt8:
    return 1;
  case ScalarType::Int16:
  case ScalarType::Float16:
  case ScalarType::BFloat16:
    return 2;
  case ScalarType::Int32:
  case ScalarType::Float32:
    return 4;
  default:
    return 8;
  }
}

bool isInt(ScalarType t) { return t != ScalarType::Bool && !isFloatType(t); }

int needCompact(Ctx &ctx) {
  for (int i = 0; i < ctx.numInputs(); ++i)
    if (!isCompact(ctx.in(i)))
      return ctx.fail("on CUDA, takes compact tensors; input " + std::to_string(i) + " is not");
  for (int i = 0; i < ctx.numOutputs(); ++i)
    if (!isCompact(ctx.out(i)))
      return ctx.fail("on CUDA, takes compact tensors; output " + std::to_string(i) + " is not");
  return 0;
}

bool sameShape(const DLTensor &a, const int64_t *shape, int ndim) {
  if (a.ndim != ndim)
    return false;
  for (int d = 0; d < ndim; ++d)
    if (a.shape[d] != shape[d])
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// nll_loss and its gradient
//===----------------------------------------------------------------------===//

struct NLLParams {
  const char *pred, *targets, *weights, *grad;
  char *out;
  ScalarType type, targetType;
  int64_t count, classes, spatial, ignore;
  int reduction; ///< 0 none, 1 sum, 2 mean
};

/// Target j's class and weight (0 when ignored); -1 when out of range.
template <class A> __device__ int64_t targetOf(const NLLParams &p, int64_t j, A &weight) {
  int64_t t = loadAs<int64_t>(p.targets + j * sizeOf(p.targetType), p.targetType);
  if (t == p.ignore) {
    weight = A(0);
    return 0;
  }
  if (t < 0 || t >= p.classes)
    return -1;
  int64_t es = p.type == ScalarType::Float64 ? 8 : p.type == ScalarType::Float32 ? 4 : 2;
  weight = p.weights ? loadAs<A>(p.weights + t * es, p.type) : A(1);
  return t;
}

__host__ __device__ inline int64_t predIndex(const NLLParams &p, int64_t j, int64_t t) {
  return (j / p.spatial * p.classes + t) * p.spatial + j % p.spatial;
}

/// One block: per-target losses (reduction none) or their sum and the
/// weights' sum, then the scalar.
template <class A> __global__ void __launch_bounds__(kThreads) nllLossKernel(NLLParams p) {
  awaitUpstream();
  __shared__ A shared[32];
  int64_t es = p.type == ScalarType::Float64 ? 8 : p.type == ScalarType::Float32 ? 4 : 2;
  A sum = 0, wsum = 0;
  for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
    A w;
    int64_t t = targetOf<A>(p, j, w);
    A loss = t < 0       ? A(NAN)
             : w == A(0) ? A(0)
                         : -loadAs<A>(p.pred + predIndex(p, j, t) * es, p.type) * w;
    if (p.reduction == 0)
      storeAs<A>(p.out + j * es, p.type, loss);
    sum += loss;
    wsum += t < 0 ? A(0) : w;
  }
  if (p.reduction == 0)
    return;
  sum = blockSum(sum, shared);
  wsum = blockSum(wsum, shared);
  if (threadIdx.x == 0)
    storeAs<A>(p.out, p.type, p.reduction == 1 ? sum : sum / wsum);
}

/// One block: the weights' sum (for mean), then -w * grad where each target
/// points (the output is zeroed before).
template <class A> __global__ void __launch_bounds__(kThreads) nllLossGradKernel(NLLParams p) {
  awaitUpstream();
  __shared__ A shared[32];
  int64_t es = p.type == ScalarType::Float64 ? 8 : p.type == ScalarType::Float32 ? 4 : 2;
  A scale = 1;
  if (p.reduction == 2) {
    A wsum = 0;
    for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
      A w;
      if (targetOf<A>(p, j, w) >= 0)
        wsum += w;
    }
    scale = A(1) / blockSum(wsum, shared);
  }
  for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
    A w;
    int64_t t = targetOf<A>(p, j, w);
    if (t < 0 || w == A(0))
      continue;
    A g = loadAs<A>(p.grad + (p.reduction == 0 ? j * es : 0), p.type);
    storeAs<A>(p.out + predIndex(p, j, t) * es, p.type, -w * g * scale);
  }
}

/// The checks both share; `first` is predictions' input index.
int nllSetUp(Ctx &ctx, int first, NLLParams &p) {
  int n = ctx.numInputs();
  if (n < first + 2 || n > first + 3)
    return ctx.fail("takes " + std::to_string(first + 2) + " or " + std::to_string(first + 3) +
                    " inputs, got " + std::to_string(n));
  if (int rc = ctx.checkArity(-1, 1))
    return rc;
  if (int rc = needCompact(ctx))
    return rc;
  const DLTensor &pred = ctx.in(first), &targets = ctx.in(first + 1);
  p.type = scalarTypeOf(pred.dtype);
  p.targetType = scalarTypeOf(targets.dtype);
  if (!isFloatType(p.type) || scalarTypeOf(ctx.out(0).dtype) != p.type)
    return ctx.fail("predictions must be a floating-point tensor of the output's dtype");
  if (!isInt(p.targetType))
    return ctx.fail("targets must be an integer tensor, got " + dtypeName(targets.dtype));
  if (pred.ndim < 1)
    return ctx.fail("predictions must have at least 1 dimension");
  int64_t want[kMaxDims];
  int wantDims = 0;
  p.spatial = 1;
  if (pred.ndim == 1) {
    p.classes = pred.shape[0];
  } else {
    p.classes = pred.shape[1];
    want[wantDims++] = pred.shape[0];
    for (int d = 2; d < pred.ndim; ++d) {
      want[wantDims++] = pred.shape[d];
      p.spatial *= pred.shape[d];
    }
  }
  if (!sameShape(targets, want, wantDims))
    return ctx.fail("targets must have the shape " + shapeStr(want, wantDims) + ", got " +
                    shapeStr(targets));
  p.weights = nullptr;
  if (n == first + 3) {
    const DLTensor &w = ctx.in(first + 2);
    if (scalarTypeOf(w.dtype) != p.type || !sameShape(w, &p.classes, 1))
      return ctx.fail("weights must have the predictions' dtype and the shape (" +
                      std::to_string(p.classes) + ",)");
    p.weights = dataOf(w);
  }
  p.pred = dataOf(pred);
  p.targets = dataOf(targets);
  p.out = dataOf(ctx.out(0));
  p.count = numel(targets);
  int64_t ignore = -100;
  if (!ctx.intAttr(1, "ignore_index", -100, ignore))
    return 1;
  p.ignore = ignore;
  std::string reduction = "mean";
  if (ctx.hasAttr(0)) {
    if (ctx.attr(0).kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'reduction' must be a string");
    reduction = ctx.attr(0).s;
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return ctx.fail("reduction must be \"none\", \"sum\" or \"mean\", got \"" + reduction + "\"");
  p.reduction = reduction == "none" ? 0 : reduction == "sum" ? 1 : 2;
  return 0;
}

int nllLoss(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.nll_loss", err);
  NLLParams p{};
  if (int rc = nllSetUp(ctx, 0, p))
    return rc;
  const DLTensor &out = ctx.out(0);
  bool ok = p.reduction == 0 ? sameShape(out, ctx.in(1).shape, ctx.in(1).ndim) : out.ndim == 0;
  if (!ok)
    return ctx.fail("output 0 has the shape " + shapeStr(out) +
                    ", which the reduction does not give");
  if (p.type == ScalarType::Float64)
    nllLossKernel<double><<<1, kThreads, 0, ctx.stream()>>>(p);
  else
    nllLossKernel<float><<<1, kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("nllLossKernel");
}

int nllLossBackward(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.grad.nll_loss_backward", err);
  NLLParams p{};
  if (int rc = nllSetUp(ctx, 1, p))
    return rc;
  const DLTensor &grad = ctx.in(0), &pred = ctx.in(1), &out = ctx.out(0);
  if (scalarTypeOf(grad.dtype) != p.type)
    return ctx.fail("output_grad must have the predictions' dtype");
  bool gradOk =
      p.reduction == 0 ? sameShape(grad, ctx.in(2).shape, ctx.in(2).ndim) : grad.ndim == 0;
  if (!gradOk || !sameShape(out, pred.shape, pred.ndim))
    return ctx.fail("output_grad " + shapeStr(grad) + " or output " + shapeStr(out) +
                    " does not fit predictions " + shapeStr(pred));
  p.grad = dataOf(grad);
  int64_t bytes = numel(out) * sizeOf(p.type);
  if (bytes == 0)
    return 0;
  if (cudaError_t e = cudaMemsetAsync(p.out, 0, size_t(bytes), ctx.stream()))
    return ctx.failCuda("cudaMemsetAsync", e);
  if (p.type == ScalarType::Float64)
    nllLossGradKernel<double><<<1, kThreads, 0, ctx.stream()>>>(p);
  else
    nllLossGradKernel<float><<<1, kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("nllLossGradKernel");
}

//===----------------------------------------------------------------------===//
// cross_entropy_with_logits, dropout
//===----------------------------------------------------------------------===//

template <class A>
__global__ void __launch_bounds__(kThreads)
    crossEntropyKernel(const char *x, const char *y, char *out, ScalarType t, int64_t n,
                       int64_t batch) {
  awaitUpstream();
  __shared__ A shared[32];
  int64_t es = t == ScalarType::Float64 ? 8 : t == ScalarType::Float32 ? 4 : 2;
  A sum = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
    sum += loadAs<A>(x + i * es, t) * loadAs<A>(y + i * es, t);
  sum = blockSum(sum, shared);
  if (threadIdx.x == 0)
    storeAs<A>(out, t, -sum / A(batch));
}

int crossEntropy(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.cross_entropy_with_logits", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  if (int rc = needCompact(ctx))
    return rc;
  const DLTensor &x = ctx.in(0), &y = ctx.in(1), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  if (!isFloatType(t) || scalarTypeOf(y.dtype) != t || scalarTypeOf(out.dtype) != t)
    return ctx.fail("takes floating-point predictions and labels of the output's dtype");
  if (!sameShape(y, x.shape, x.ndim) || out.ndim != 0)
    return ctx.fail("predictions and labels must have one shape and the output none");
  int64_t batch = x.ndim > 1 ? x.shape[0] : 1;
  if (t == ScalarType::Float64)
    crossEntropyKernel<double>
        <<<1, kThreads, 0, ctx.stream()>>>(dataOf(x), dataOf(y), dataOf(out), t, numel(x), batch);
  else
    crossEntropyKernel<float>
        <<<1, kThreads, 0, ctx.stream()>>>(dataOf(x), dataOf(y), dataOf(out), t, numel(x), batch);
  return ctx.checkLaunch("crossEntropyKernel");
}

template <class T>
__global__ void __launch_bounds__(kThreads) dropoutKernel(const T *x, T *out, T *mask, int64_t n) {
  awaitUpstream();
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = x[i];
    storeElem<T>(&mask[i], Compute<T>(1));
  }
}

int dropout(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.dropout", err);
  if (int rc = ctx.checkArity(1, 2))
    return rc;
  if (int rc = needCompact(ctx))
    return rc;
  const DLTensor &x = ctx.in(0);
  for (int k = 0; k < 2; ++k)
    if (scalarTypeOf(ctx.out(k).dtype) != scalarTypeOf(x.dtype) ||
        !sameShape(ctx.out(k), x.shape, x.ndim))
      return ctx.fail("output " + std::to_string(k) + " must have the data's dtype and shape");
  int64_t n = numel(x);
  if (n == 0)
    return 0;
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    dropoutKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        reinterpret_cast<const T *>(dataOf(x)), reinterpret_cast<T *>(dataOf(ctx.out(0))),
        reinterpret_cast<T *>(dataOf(ctx.out(1))), n);
    return ctx.checkLaunch("dropoutKernel");
  });
}

//===----------------------------------------------------------------------===//
// group_norm, instance_norm
//===----------------------------------------------------------------------===//

/// A statistic set: the dims outside the channel and the axes (outer), the
/// channels of one group, and the normalized axes; all element strides.
struct NormParams {
  const char *x, *gamma, *beta;
  char *out;
  ScalarType type;
  int outerDims, axesDims;
  int64_t outerShape[kMaxDims], outerStride[kMaxDims];
  int64_t axesShape[kMaxDims], axesStride[kMaxDims];
  int64_t channelStride, perGroup, groups, axesCount;
  double eps;
  bool center, scale;
};

/// One block per set: mean, then biased variance, then the output.
template <class A> __global__ void __launch_bounds__(kThreads) channelNormKernel(NormParams p) {
  awaitUpstream();
  __shared__ A shared[32];
  int64_t set = blockIdx.x, key = set / p.groups, group = set % p.groups;
  int64_t base = 0;
  for (int d = p.outerDims - 1; d >= 0; --d) {
    base += key % p.outerShape[d] * p.outerStride[d];
    key /= p.outerShape[d];
  }
  int64_t m = p.perGroup * p.axesCount;
  int64_t es = p.type == ScalarType::Float64 ? 8 : p.type == ScalarType::Float32 ? 4 : 2;
  auto offset = [&](int64_t k, int64_t &c) {
    c = group * p.perGroup + k / p.axesCount;
    int64_t a = k % p.axesCount, off = base + c * p.channelStride;
    for (int d = p.axesDims - 1; d >= 0; --d) {
      off += a % p.axesShape[d] * p.axesStride[d];
      a /= p.axesShape[d];
    }
    return off;
  };
  A sum = 0;
  int64_t c;
  for (int64_t k = threadIdx.x; k < m; k += blockDim.x)
    sum += loadAs<A>(p.x + offset(k, c) * es, p.type);
  A mean = blockSum(sum, shared) / A(m);
  A sq = 0;
  for (int64_t k = threadIdx.x; k < m; k += blockDim.x) {
    A d = loadAs<A>(p.x + offset(k, c) * es, p.type) - mean;
    sq += d * d;
  }
  A inv = A(1) / sqrt(blockSum(sq, shared) / A(m) + A(p.eps));
  for (int64_t k = threadIdx.x; k < m; k += blockDim.x) {
    int64_t off = offset(k, c);
    A v = (loadAs<A>(p.x + off * es, p.type) - mean) * inv;
    if (p.scale)
      v *= loadAs<A>(p.gamma + c * es, p.type);
    if (p.center)
      v += loadAs<A>(p.beta + c * es, p.type);
    storeAs<A>(p.out + off * es, p.type, v);
  }
}

template <bool Group> int channelNorm(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Group ? "graft.nn.group_norm" : "graft.nn.instance_norm", err);
  if (int rc = ctx.checkArity(3, 1))
    return rc;
  if (int rc = needCompact(ctx))
    return rc;
  int a = 0;
  int64_t groups = 0, channelAxis = 0;
  std::vector<int64_t> axes;
  bool set = false;
  NormParams p{};
  bool center = true, scale = true;
  if ((Group && !ctx.intAttr(a++, "num_groups", 1, groups)) ||
      !ctx.intAttr(a++, "channel_axis", 1, channelAxis) || !ctx.intsAttr(a++, "axes", axes, set) ||
      !ctx.floatAttr(a++, "epsilon", 1e-5, p.eps) || !ctx.boolAttr(a++, "center", true, center) ||
      !ctx.boolAttr(a++, "scale", true, scale))
    return 1;
  const DLTensor &x = ctx.in(0);
  p.type = scalarTypeOf(x.dtype);
  if (!isFloatType(p.type) || scalarTypeOf(ctx.out(0).dtype) != p.type ||
      scalarTypeOf(ctx.in(1).dtype) != p.type || scalarTypeOf(ctx.in(2).dtype) != p.type)
    return ctx.fail("takes floating-point data, gamma, beta and output of one dtype");
  int ndim = x.ndim;
  int64_t ch = channelAxis < 0 ? channelAxis + ndim : channelAxis;
  if (ch < 0 || ch >= ndim)
    return ctx.fail("channel_axis " + std::to_string(channelAxis) + " is out of range");
  bool isAxis[kMaxDims] = {};
  for (int64_t ax : axes) {
    int64_t d = ax < 0 ? ax + ndim : ax;
    if (d < 0 || d >= ndim || d == ch || isAxis[d])
      return ctx.fail("axes must be distinct dims in range other than channel_axis");
    isAxis[d] = true;
  }
  int64_t channels = x.shape[ch];
  if (!Group)
    groups = channels;
  if (groups < 1 || channels % groups)
    return ctx.fail("num_groups " + std::to_string(groups) + " must divide the " +
                    std::to_string(channels) + " channels");
  if (!sameShape(ctx.in(1), &channels, 1) || !sameShape(ctx.in(2), &channels, 1) ||
      !sameShape(ctx.out(0), x.shape, ndim))
    return ctx.fail("gamma and beta must have the shape (" + std::to_string(channels) +
                    ",) and the output the data's");
  int64_t strides[kMaxDims];
  elementStrides(x, strides);
  int64_t sets = groups;
  p.axesCount = 1;
  for (int d = 0; d < ndim; ++d) {
    if (d == ch)
      continue;
    if (isAxis[d]) {
      p.axesShape[p.axesDims] = x.shape[d];
      p.axesStride[p.axesDims++] = strides[d];
      p.axesCount *= x.shape[d];
    } else {
      p.outerShape[p.outerDims] = x.shape[d];
      p.outerStride[p.outerDims++] = strides[d];
      sets *= x.shape[d];
    }
  }
  p.channelStride = strides[ch];
  p.perGroup = channels / groups;
  p.groups = groups;
  p.center = center;
  p.scale = scale;
  p.x = dataOf(x);
  p.gamma = dataOf(ctx.in(1));
  p.beta = dataOf(ctx.in(2));
  p.out = dataOf(ctx.out(0));
  if (numel(x) == 0)
    return 0;
  if (sets > 0x7fffffff)
    return ctx.fail("more statistic sets than one grid holds");
  if (p.type == ScalarType::Float64)
    channelNormKernel<double><<<unsigned(sets), kThreads, 0, ctx.stream()>>>(p);
  else
    channelNormKernel<float><<<unsigned(sets), kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("channelNormKernel");
}

//===----------------------------------------------------------------------===//
// take_backward
//===----------------------------------------------------------------------===//

struct TakeGradParams {
  const char *grad, *indices;
  char *out;
  ScalarType indexType;
  int64_t total, extent, inner, count;
};

/// out[p, k, r] = sum over q with indices[q] == k of grad[p, q, r], in q
/// order (a gather: deterministic, no atomics).
template <class T, class A>
__global__ void __launch_bounds__(kThreads) takeGradKernel(TakeGradParams p) {
  awaitUpstream();
  int64_t is = sizeOf(p.indexType);
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.total;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t r = i % p.inner, k = i / p.inner % p.extent, outer = i / p.inner / p.extent;
    A acc = A(0);
    const T *g = reinterpret_cast<const T *>(p.grad);
    for (int64_t q = 0; q < p.count; ++q) {
      int64_t idx = loadAs<int64_t>(p.indices + q * is, p.indexType);
      if (idx < 0)
        idx += p.extent;
      if (idx == k)
        acc += A(loadElem<T>(&g[(outer * p.count + q) * p.inner + r]));
    }
    if constexpr (kIsFloat<T>)
      storeElem<T>(reinterpret_cast<T *>(p.out) + i, Compute<T>(acc));
    else
      reinterpret_cast<T *>(p.out)[i] = T(acc);
  }
}

int takeBackward(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.grad.take_backward", err);
  if (int rc = ctx.checkArity(3, 1))
    return rc;
  if (int rc = needCompact(ctx))
    return rc;
  const DLTensor &grad = ctx.in(0), &x = ctx.in(1), &idx = ctx.in(2), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  TakeGradParams p{};
  p.indexType = scalarTypeOf(idx.dtype);
  if (t == ScalarType::Bool || scalarTypeOf(grad.dtype) != t || scalarTypeOf(out.dtype) != t)
    return ctx.fail("takes numeric output_grad, x and output of one dtype");
  if (!isInt(p.indexType))
    return ctx.fail("indices must be an integer tensor, got " + dtypeName(idx.dtype));
  if (!sameShape(out, x.shape, x.ndim))
    return ctx.fail("output 0 must have x's shape " + shapeStr(x));
  int64_t want[kMaxDims];
  int wantDims = 0;
  p.count = numel(idx);
  p.extent = numel(x);
  p.inner = 1;
  int64_t outer = 1;
  if (ctx.hasAttr(0)) {
    int64_t axis = 0;
    if (!ctx.intAttr(0, "axis", 0, axis))
      return 1;
    int64_t ax = axis < 0 ? axis + x.ndim : axis;
    if (ax < 0 || ax >= x.ndim)
      return ctx.fail("axis " + std::to_string(axis) + " is out of range");
    p.extent = x.shape[ax];
    for (int d = 0; d < ax; ++d) {
      want[wantDims++] = x.shape[d];
      outer *= x.shape[d];
    }
    for (int d = 0; d < idx.ndim; ++d)
      want[wantDims++] = idx.shape[d];
    for (int d = int(ax) + 1; d < x.ndim; ++d) {
      want[wantDims++] = x.shape[d];
      p.inner *= x.shape[d];
    }
  } else {
    for (int d = 0; d < idx.ndim; ++d)
      want[wantDims++] = idx.shape[d];
  }
  if (wantDims > kMaxDims || !sameShape(grad, want, wantDims))
    return ctx.fail("output_grad must have the shape " + shapeStr(want, wantDims) + ", got " +
                    shapeStr(grad));
  p.total = outer * p.extent * p.inner;
  p.grad = dataOf(grad);
  p.indices = dataOf(idx);
  p.out = dataOf(out);
  if (p.total == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      // Integers add with wrap-around in 64 bits, then narrow.
      using A = std::conditional_t<kIsFloat<T>, typename AccOf<Compute<T>>::type, uint64_t>;
      takeGradKernel<T, A><<<gridFor(p.total, kThreads), kThreads, 0, ctx.stream()>>>(p);
      return ctx.checkLaunch("takeGradKernel");
    }
    return 1;
  });
}

const char *const kLossAttrs[] = {"reduction", "ignore_index"};
const char *const kDropoutAttrs[] = {"rate"};
const char *const kGroupNormAttrs[] = {"num_groups", "channel_axis", "axes",
                                       "epsilon",    "center",       "scale"};
const char *const kInstanceNormAttrs[] = {"channel_axis", "axes", "epsilon", "center", "scale"};
const char *const kTakeBackwardAttrs[] = {"axis"};

} // namespace

void addBatchCKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.nn.nll_loss", -1, 1, kLossAttrs, 2, nllLoss, nullptr});
  out.push_back({"graft.grad.nll_loss_backward", -1, 1, kLossAttrs, 2, nllLossBackward, nullptr});
  out.push_back({"graft.nn.cross_entropy_with_logits", 2, 1, nullptr, 0, crossEntropy, nullptr});
  out.push_back({"graft.nn.dropout", 1, 2, kDropoutAttrs, 1, dropout, nullptr});
  out.push_back({"graft.nn.group_norm", 3, 1, kGroupNormAttrs, 6, channelNorm<true>, nullptr});
  out.push_back(
      {"graft.nn.instance_norm", 3, 1, kInstanceNormAttrs, 5, channelNorm<false>, nullptr});
  out.push_back({"graft.grad.take_backward", 3, 1, kTakeBackwardAttrs, 1, takeBackward, nullptr});
}

} // namespace graft::cuda
