//===- kernels/cuda/Conv.cu - Convolutions, pools and batch norm ----------===//
//
// The CUDA kernels of nn.conv1d/2d/3d, nn.conv1d/2d_transpose,
// nn.max/avg_pool1d/2d/3d, nn.adaptive_avg_pool1d/2d/3d and nn.batch_norm:
// direct kernels, one thread per output element, over the window
// arithmetic the CPU kernels use (kernels/ConvGeometry.h), so both take
// the same layouts and attributes and refuse the same shapes. Elements
// load and store through their runtime dtype; sums accumulate in float
// (double when a tensor is float64), where the CPU kernels use double.
// batch_norm runs one block per channel: the block reduces the channel's
// statistics, normalizes it, and writes the moving statistics.
//
//===----------------------------------------------------------------------===//

#include "kernels/ConvGeometry.h"
#include "kernels/cuda/Common.cuh"

#include <cfloat>

namespace graft::cuda {
namespace {

namespace conv = graft::kernels::conv;

constexpr int kThreads = 256;

int64_t elemSize(ScalarType t) {
  return t == ScalarType::Float64 ? 8 : t == ScalarType::Float32 ? 4 : 2;
}

/// The tensors of one call as the device sees them.
struct Tensors {
  const char *in[2] = {};
  ScalarType inT[2] = {ScalarType::Float32, ScalarType::Float32};
  int64_t inSize[2] = {4, 4};
  char *out = nullptr;
  ScalarType outT = ScalarType::Float32;
  int64_t outSize = 4;
};

template <class A> struct DeviceLoad {
  const Tensors *t;
  __device__ A operator()(int k, int64_t offset) const {
    return loadAs<A>(t->in[k] + offset * t->inSize[k], t->inT[k]);
  }
};

enum class Kind { Conv, ConvTranspose, MaxPool, AvgPool, Adaptive };

template <Kind K, class A>
__global__ void __launch_bounds__(kThreads)
    windowKernel(conv::Geometry g, Tensors t, bool includePad, A lowest) {
  awaitUpstream();
  int64_t total = g.outNumel();
  DeviceLoad<A> load{&t};
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t n, c, o[conv::kSlots];
    g.outIndex(i, n, c, o);
    A v;
    if constexpr (K == Kind::Conv)
      v = conv::convAt<A>(g, n, c, o, load);
    else if constexpr (K == Kind::ConvTranspose)
      v = conv::convTransposeAt<A>(g, n, c, o, load);
    else if constexpr (K == Kind::MaxPool)
      v = conv::poolAt<true, A>(g, n, c, o, includePad, lowest, load);
    else if constexpr (K == Kind::AvgPool)
      v = conv::poolAt<false, A>(g, n, c, o, includePad, lowest, load);
    else
      v = conv::adaptiveAt<A>(g, n, c, o, load);
    storeAs<A>(t.out + g.outOffset(n, c, o) * t.outSize, t.outT, v);
  }
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

bool listAttr(Ctx &ctx, int i, const char *name, std::vector<int64_t> &out) {
  bool set = false;
  return ctx.intsAttr(i, name, out, set);
}

/// Float tensors only (legalize-ops refuses the rest), each within the
/// indexer's rank.
int checkFloats(Ctx &ctx) {
  for (int i = 0; i < ctx.numInputs() + ctx.numOutputs(); ++i) {
    bool input = i < ctx.numInputs();
    const DLTensor &t = input ? ctx.in(i) : ctx.out(i - ctx.numInputs());
    if (!isFloatType(scalarTypeOf(t.dtype)))
      return ctx.fail(
          std::string("takes floating-point tensors, got ") + (input ? "input " : "output ") +
          std::to_string(input ? i : i - ctx.numInputs()) + " of dtype " + dtypeName(t.dtype));
    if (int rc = ctx.checkRank(t, input ? "input" : "output"))
      return rc;
  }
  return 0;
}

/// Shape and element strides of `t`, for the geometry.
struct Desc {
  int64_t strides[kMaxDims];
  conv::TensorDesc desc;
  explicit Desc(const DLTensor &t) {
    elementStrides(t, strides);
    desc = {t.ndim, t.shape, strides};
  }
};

Tensors tensorsOf(Ctx &ctx) {
  Tensors t;
  for (int k = 0; k < ctx.numInputs() && k < 2; ++k) {
    t.in[k] = dataOf(ctx.in(k));
    t.inT[k] = scalarTypeOf(ctx.in(k).dtype);
    t.inSize[k] = elemSize(t.inT[k]);
  }
  t.out = dataOf(ctx.out(0));
  t.outT = scalarTypeOf(ctx.out(0).dtype);
  t.outSize = elemSize(t.outT);
  return t;
}

/// The most negative finite value of the dtype (TOPI's max-pool padding).
double lowestOf(ScalarType t) {
  switch (t) {
  case ScalarType::Float16:
    return -65504.0;
  case ScalarType::BFloat16:
    return -3.3895313892515355e38;
  case ScalarType::Float32:
    return -double(FLT_MAX);
  default:
    return -DBL_MAX;
  }
}

template <Kind K>
int launch(Ctx &ctx, const conv::Geometry &g, bool includePad = false, double lowest = 0) {
  int64_t total = g.outNumel();
  if (total == 0)
    return 0;
  Tensors t = tensorsOf(ctx);
  bool wide = t.outT == ScalarType::Float64;
  for (int k = 0; k < ctx.numInputs(); ++k)
    wide |= t.inT[k] == ScalarType::Float64;
  int64_t blocks = (total + kThreads - 1) / kThreads;
  unsigned grid = unsigned(blocks < 65535 * 16 ? blocks : 65535 * 16);
  if (wide)
    windowKernel<K, double><<<grid, kThreads, 0, ctx.stream()>>>(g, t, includePad, lowest);
  else
    windowKernel<K, float><<<grid, kThreads, 0, ctx.stream()>>>(g, t, includePad, float(lowest));
  return ctx.checkLaunch("windowKernel");
}

template <int S, bool Transpose>
int convEntry(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  static const std::string symbol =
      "graft.nn.conv" + std::to_string(S) + "d" + (Transpose ? "_transpose" : "");
  Ctx ctx(args, symbol.c_str(), err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  if (int rc = checkFloats(ctx))
    return rc;
  conv::ConvAttrs a;
  int i = 0;
  std::string dc = conv::dataCanonical(S);
  if (!listAttr(ctx, i++, "strides", a.strides) || !listAttr(ctx, i++, "padding", a.padding) ||
      (Transpose && !listAttr(ctx, i++, "output_padding", a.outputPadding)) ||
      !listAttr(ctx, i++, "dilation", a.dilation) || !ctx.intAttr(i++, "groups", 1, a.groups) ||
      !strAttr(ctx, i++, "data_layout", dc, a.dataLayout) ||
      !strAttr(ctx, i++, "kernel_layout", (Transpose ? "IO" : "OI") + dc.substr(2),
               a.kernelLayout) ||
      !strAttr(ctx, i++, "out_layout", "", a.outLayout))
    return 1;
  Desc d(ctx.in(0)), w(ctx.in(1)), o(ctx.out(0));
  conv::Geometry g;
  std::string e = conv::convGeometry(S, Transpose, d.desc, w.desc, o.desc, a, g);
  if (!e.empty())
    return ctx.fail(e);
  return launch < Transpose ? Kind::ConvTranspose : Kind::Conv > (ctx, g);
}

template <int S, bool Max> int poolEntry(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  static const std::string symbol =
      std::string(Max ? "graft.nn.max_pool" : "graft.nn.avg_pool") + std::to_string(S) + "d";
  Ctx ctx(args, symbol.c_str(), err);
  if (int rc = ctx.checkArity(1, 1))
    return rc;
  if (int rc = checkFloats(ctx))
    return rc;
  if (scalarTypeOf(ctx.in(0).dtype) != scalarTypeOf(ctx.out(0).dtype))
    return ctx.fail("output 0 must have the data's dtype " + dtypeName(ctx.in(0).dtype) + ", got " +
                    dtypeName(ctx.out(0).dtype));
  conv::PoolAttrs a;
  if (!listAttr(ctx, 0, "pool_size", a.poolSize) || !listAttr(ctx, 1, "strides", a.strides) ||
      !listAttr(ctx, 2, "padding", a.padding) || !listAttr(ctx, 3, "dilation", a.dilation) ||
      !ctx.boolAttr(4, "ceil_mode", false, a.ceilMode) ||
      !ctx.boolAttr(5, "count_include_pad", false, a.countIncludePad) ||
      !strAttr(ctx, 6, "layout", conv::dataCanonical(S), a.layout) ||
      !strAttr(ctx, 7, "out_layout", "", a.outLayout))
    return 1;
  Desc d(ctx.in(0)), o(ctx.out(0));
  conv::Geometry g;
  std::string e = conv::poolGeometry(S, false, d.desc, o.desc, a, g);
  if (!e.empty())
    return ctx.fail(e);
  return launch < Max
             ? Kind::MaxPool
             : Kind::AvgPool > (ctx, g, a.countIncludePad, lowestOf(scalarTypeOf(ctx.in(0).dtype)));
}

/// The data gradient of a 2-d pool, one data element per thread (a gather:
/// no atomics, the CPU kernel's order of windows).
template <bool Max, class A>
__global__ void __launch_bounds__(kThreads)
    poolGradKernel(conv::Geometry g, Tensors t, bool includePad, int64_t total, int64_t channels,
                   int64_t h, int64_t w, int64_t sn, int64_t sc, int64_t sh, int64_t sw) {
  awaitUpstream();
  DeviceLoad<A> load{&t};
  for (int64_t flat = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; flat < total;
       flat += int64_t(gridDim.x) * blockDim.x) {
    int64_t i[conv::kSlots] = {0, (flat / w) % h, flat % w};
    int64_t c = (flat / w / h) % channels, n = flat / w / h / channels;
    A v = conv::poolGradAt<Max, A>(g, n, c, i, includePad, load);
    storeAs<A>(t.out + (n * sn + c * sc + i[1] * sh + i[2] * sw) * t.outSize, t.outT, v);
  }
}

/// grad.max_pool2d_backward / grad.avg_pool2d_backward(output_grad, data).
template <bool Max> int poolGradEntry(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Max ? "graft.grad.max_pool2d_backward" : "graft.grad.avg_pool2d_backward", err);
  if (int rc = ctx.checkArity(2, 1))
    return rc;
  if (int rc = checkFloats(ctx))
    return rc;
  ScalarType dt = scalarTypeOf(ctx.in(1).dtype);
  if (scalarTypeOf(ctx.in(0).dtype) != dt || scalarTypeOf(ctx.out(0).dtype) != dt)
    return ctx.fail("output_grad and output 0 must have the data's dtype " +
                    dtypeName(ctx.in(1).dtype));
  conv::PoolAttrs a;
  if (!listAttr(ctx, 0, "pool_size", a.poolSize) || !listAttr(ctx, 1, "strides", a.strides) ||
      !listAttr(ctx, 2, "padding", a.padding) || !listAttr(ctx, 3, "dilation", a.dilation) ||
      !ctx.boolAttr(4, "ceil_mode", false, a.ceilMode) ||
      !ctx.boolAttr(5, "count_include_pad", false, a.countIncludePad) ||
      !strAttr(ctx, 6, "layout", "NCHW", a.layout) ||
      !strAttr(ctx, 7, "out_layout", "", a.outLayout))
    return 1;
  // TVM's backward pools keep the padding as written: one value, or one
  // per spatial dim for both sides.
  if (a.padding.size() == 1)
    a.padding.assign(4, a.padding[0]);
  else if (a.padding.size() == 2)
    a.padding = {a.padding[0], a.padding[1], a.padding[0], a.padding[1]};
  const DLTensor &data = ctx.in(1), &out = ctx.out(0);
  bool same = data.ndim == out.ndim;
  for (int d = 0; same && d < data.ndim; ++d)
    same = data.shape[d] == out.shape[d];
  if (!same)
    return ctx.fail("output 0 must have the data's shape " + shapeStr(data) + ", got " +
                    shapeStr(out));
  Desc d(data), gd(ctx.in(0)), od(out);
  conv::Geometry g;
  std::string e = conv::poolGeometry(2, false, d.desc, gd.desc, a, g);
  int64_t shape[conv::kRank], strides[conv::kRank];
  if (e.empty())
    e = conv::canonicalize(od.desc, a.layout, "NCHW", "output", shape, strides);
  if (!e.empty())
    return ctx.fail(e);
  int64_t total = numel(out);
  if (total == 0)
    return 0;
  // Input 0 of the geometry's loads is the data, input 1 the gradient.
  Tensors t;
  const DLTensor *ins[] = {&data, &ctx.in(0)};
  for (int k = 0; k < 2; ++k) {
    t.in[k] = dataOf(*ins[k]);
    t.inT[k] = dt;
    t.inSize[k] = elemSize(dt);
  }
  t.out = dataOf(out);
  t.outT = dt;
  t.outSize = elemSize(dt);
  int64_t blocks = (total + kThreads - 1) / kThreads;
  unsigned grid = unsigned(blocks < 65535 * 16 ? blocks : 65535 * 16);
  if (dt == ScalarType::Float64)
    poolGradKernel<Max, double><<<grid, kThreads, 0, ctx.stream()>>>(
        g, t, a.countIncludePad, total, shape[1], shape[3], shape[4], strides[0], strides[1],
        strides[3], strides[4]);
  else
    poolGradKernel<Max, float><<<grid, kThreads, 0, ctx.stream()>>>(
        g, t, a.countIncludePad, total, shape[1], shape[3], shape[4], strides[0], strides[1],
        strides[3], strides[4]);
  return ctx.checkLaunch("poolGradKernel");
}

template <int S> int adaptiveEntry(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  static const std::string symbol = "graft.nn.adaptive_avg_pool" + std::to_string(S) + "d";
  Ctx ctx(args, symbol.c_str(), err);
  if (int rc = ctx.checkArity(1, 1))
    return rc;
  if (int rc = checkFloats(ctx))
    return rc;
  if (scalarTypeOf(ctx.in(0).dtype) != scalarTypeOf(ctx.out(0).dtype))
    return ctx.fail("output 0 must have the data's dtype " + dtypeName(ctx.in(0).dtype) + ", got " +
                    dtypeName(ctx.out(0).dtype));
  conv::PoolAttrs a;
  if (!strAttr(ctx, 0, "layout", conv::dataCanonical(S), a.layout) ||
      !strAttr(ctx, 1, "out_layout", "", a.outLayout))
    return 1;
  Desc d(ctx.in(0)), o(ctx.out(0));
  conv::Geometry g;
  std::string e = conv::poolGeometry(S, true, d.desc, o.desc, a, g);
  if (!e.empty())
    return ctx.fail(e);
  return launch<Kind::Adaptive>(ctx, g);
}

//===----------------------------------------------------------------------===//
// batch_norm
//===----------------------------------------------------------------------===//

/// The data's dims other than the channel axis, and each tensor's element
/// strides.
struct BatchNormParams {
  int rest = 0;                 ///< Dims other than the axis.
  int64_t shape[kMaxDims] = {}; ///< Their extents.
  int64_t xs[kMaxDims] = {};    ///< The data's strides along them.
  int64_t ys[kMaxDims] = {};    ///< The output's.
  int64_t xAxis = 0, yAxis = 0; ///< Strides along the channel axis.
  int64_t count = 1;            ///< Elements per channel.
  int64_t vs[4] = {};           ///< Strides of gamma, beta, mean, var.
  int64_t ms[2] = {};           ///< Strides of the moving outputs.
  const char *x = nullptr, *vec[4] = {};
  char *y = nullptr, *mOut[2] = {};
  ScalarType t = ScalarType::Float32;
  double eps = 1e-5, momentum = 0.1;
  bool center = true, scale = true, training = true;
};

template <class A> __device__ A blockSum(A v, A *shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  A r = shared[0];
  __syncthreads();
  return r;
}

__device__ void restOffsets(const BatchNormParams &p, int64_t j, int64_t &xo, int64_t &yo) {
  xo = yo = 0;
  for (int d = p.rest - 1; d >= 0; --d) {
    int64_t q = j / p.shape[d], r = j - q * p.shape[d];
    j = q;
    xo += r * p.xs[d];
    yo += r * p.ys[d];
  }
}

template <class A> __global__ void __launch_bounds__(kThreads) batchNormKernel(BatchNormParams p) {
  awaitUpstream();
  __shared__ A shared[kThreads];
  __shared__ A stats[2];
  int64_t c = blockIdx.x;
  int64_t es = p.t == ScalarType::Float64 ? 8 : p.t == ScalarType::Float32 ? 4 : 2;
  const char *x = p.x + c * p.xAxis * es;
  char *y = p.y + c * p.yAxis * es;
  A mean, var;
  A movMean = loadAs<A>(p.vec[2] + c * p.vs[2] * es, p.t);
  A movVar = loadAs<A>(p.vec[3] + c * p.vs[3] * es, p.t);
  if (p.training) {
    A sum = 0;
    for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
      int64_t xo, yo;
      restOffsets(p, j, xo, yo);
      sum += loadAs<A>(x + xo * es, p.t);
    }
    mean = blockSum(sum, shared) / A(p.count);
    A sq = 0;
    for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
      int64_t xo, yo;
      restOffsets(p, j, xo, yo);
      A d = loadAs<A>(x + xo * es, p.t) - mean;
      sq += d * d;
    }
    var = blockSum(sq, shared) / A(p.count);
  } else {
    mean = movMean;
    var = movVar;
  }
  if (threadIdx.x == 0) {
    stats[0] = mean;
    stats[1] = var;
  }
  __syncthreads();
  A g = p.scale ? loadAs<A>(p.vec[0] + c * p.vs[0] * es, p.t) : A(1);
  A b = p.center ? loadAs<A>(p.vec[1] + c * p.vs[1] * es, p.t) : A(0);
  A inv = A(1) / sqrt(stats[1] + A(p.eps));
  for (int64_t j = threadIdx.x; j < p.count; j += blockDim.x) {
    int64_t xo, yo;
    restOffsets(p, j, xo, yo);
    storeAs<A>(y + yo * es, p.t, (loadAs<A>(x + xo * es, p.t) - stats[0]) * inv * g + b);
  }
  // Every thread has read the moving statistics: the outputs may alias them.
  __syncthreads();
  if (threadIdx.x == 0) {
    A m = A(p.momentum);
    storeAs<A>(p.mOut[0] + c * p.ms[0] * es, p.t,
               p.training ? (A(1) - m) * movMean + m * stats[0] : movMean);
    storeAs<A>(p.mOut[1] + c * p.ms[1] * es, p.t,
               p.training ? (A(1) - m) * movVar + m * stats[1] : movVar);
  }
}

int batchNormEntry(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.nn.batch_norm", err);
  if (int rc = ctx.checkArity(5, 3))
    return rc;
  if (int rc = checkFloats(ctx))
    return rc;
  BatchNormParams p;
  int64_t axis = 1;
  if (!ctx.intAttr(0, "axis", 1, axis) || !ctx.floatAttr(1, "epsilon", 1e-5, p.eps) ||
      !ctx.boolAttr(2, "center", true, p.center) || !ctx.boolAttr(3, "scale", true, p.scale) ||
      !ctx.floatAttr(4, "momentum", 0.1, p.momentum) ||
      !ctx.boolAttr(5, "training", true, p.training))
    return 1;
  const DLTensor &x = ctx.in(0), &y = ctx.out(0);
  if (axis < -x.ndim || axis >= x.ndim)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(x.ndim) + " dims");
  if (axis < 0)
    axis += x.ndim;
  p.t = scalarTypeOf(x.dtype);
  for (int i = 0; i < 5; ++i)
    if (scalarTypeOf(ctx.in(i).dtype) != p.t)
      return ctx.fail("on CUDA, every tensor must have the data's dtype " + dtypeName(x.dtype));
  for (int i = 0; i < 3; ++i)
    if (scalarTypeOf(ctx.out(i).dtype) != p.t)
      return ctx.fail("on CUDA, every tensor must have the data's dtype " + dtypeName(x.dtype));
  bool same = y.ndim == x.ndim;
  for (int d = 0; same && d < x.ndim; ++d)
    same = y.shape[d] == x.shape[d];
  if (!same)
    return ctx.fail("output 0 must have the data's shape " + shapeStr(x) + ", got " + shapeStr(y));
  int64_t channels = x.shape[axis];
  static const char *const kParams[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (int i = 1; i < 5; ++i)
    if (ctx.in(i).ndim != 1 || ctx.in(i).shape[0] != channels)
      return ctx.fail(std::string(kParams[i - 1]) + " must have the shape [" +
                      std::to_string(channels) + "] of the data's axis " + std::to_string(axis) +
                      ", got " + shapeStr(ctx.in(i)));
  for (int i = 1; i < 3; ++i)
    if (ctx.out(i).ndim != 1 || ctx.out(i).shape[0] != channels)
      return ctx.fail("output " + std::to_string(i) + " must have the shape [" +
                      std::to_string(channels) + "], got " + shapeStr(ctx.out(i)));
  if (p.training && !(p.momentum >= 0 && p.momentum <= 1))
    return ctx.fail("momentum must be in [0, 1], got " + std::to_string(p.momentum));
  int64_t xs[kMaxDims], ys[kMaxDims];
  elementStrides(x, xs);
  elementStrides(y, ys);
  for (int d = 0; d < x.ndim; ++d) {
    if (d == axis)
      continue;
    p.shape[p.rest] = x.shape[d];
    p.xs[p.rest] = xs[d];
    p.ys[p.rest] = ys[d];
    p.count *= x.shape[d];
    ++p.rest;
  }
  p.xAxis = xs[axis];
  p.yAxis = ys[axis];
  p.x = dataOf(x);
  p.y = dataOf(y);
  for (int i = 0; i < 4; ++i) {
    p.vec[i] = dataOf(ctx.in(i + 1));
    p.vs[i] = ctx.in(i + 1).strides ? ctx.in(i + 1).strides[0] : 1;
  }
  for (int i = 0; i < 2; ++i) {
    p.mOut[i] = dataOf(ctx.out(i + 1));
    p.ms[i] = ctx.out(i + 1).strides ? ctx.out(i + 1).strides[0] : 1;
  }
  if (channels == 0)
    return 0;
  if (channels > 2147483647)
    return ctx.fail("more channels than one launch's grid holds");
  if (p.t == ScalarType::Float64)
    batchNormKernel<double><<<unsigned(channels), kThreads, 0, ctx.stream()>>>(p);
  else
    batchNormKernel<float><<<unsigned(channels), kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("batchNormKernel");
}

const char *const kConvAttrs[] = {"strides",     "padding",       "dilation",  "groups",
                                  "data_layout", "kernel_layout", "out_layout"};
const char *const kConvTransposeAttrs[] = {"strides",       "padding",   "output_padding",
                                           "dilation",      "groups",    "data_layout",
                                           "kernel_layout", "out_layout"};
const char *const kPoolAttrs[] = {"pool_size", "strides",           "padding", "dilation",
                                  "ceil_mode", "count_include_pad", "layout",  "out_layout"};
const char *const kAdaptiveAttrs[] = {"layout", "out_layout"};
const char *const kBatchNormAttrs[] = {"axis",  "epsilon",  "center",
                                       "scale", "momentum", "training"};

} // namespace

void addConvKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.nn.conv1d", 2, 1, kConvAttrs, 7, convEntry<1, false>, nullptr});
  out.push_back({"graft.nn.conv2d", 2, 1, kConvAttrs, 7, convEntry<2, false>, nullptr});
  out.push_back({"graft.nn.conv3d", 2, 1, kConvAttrs, 7, convEntry<3, false>, nullptr});
  out.push_back(
      {"graft.nn.conv1d_transpose", 2, 1, kConvTransposeAttrs, 8, convEntry<1, true>, nullptr});
  out.push_back(
      {"graft.nn.conv2d_transpose", 2, 1, kConvTransposeAttrs, 8, convEntry<2, true>, nullptr});
  out.push_back({"graft.nn.max_pool1d", 1, 1, kPoolAttrs, 8, poolEntry<1, true>, nullptr});
  out.push_back({"graft.nn.max_pool2d", 1, 1, kPoolAttrs, 8, poolEntry<2, true>, nullptr});
  out.push_back(
      {"graft.grad.max_pool2d_backward", 2, 1, kPoolAttrs, 8, poolGradEntry<true>, nullptr});
  out.push_back(
      {"graft.grad.avg_pool2d_backward", 2, 1, kPoolAttrs, 8, poolGradEntry<false>, nullptr});
  out.push_back({"graft.nn.max_pool3d", 1, 1, kPoolAttrs, 8, poolEntry<3, true>, nullptr});
  out.push_back({"graft.nn.avg_pool1d", 1, 1, kPoolAttrs, 8, poolEntry<1, false>, nullptr});
  out.push_back({"graft.nn.avg_pool2d", 1, 1, kPoolAttrs, 8, poolEntry<2, false>, nullptr});
  out.push_back({"graft.nn.avg_pool3d", 1, 1, kPoolAttrs, 8, poolEntry<3, false>, nullptr});
  out.push_back(
      {"graft.nn.adaptive_avg_pool1d", 1, 1, kAdaptiveAttrs, 2, adaptiveEntry<1>, nullptr});
  out.push_back(
      {"graft.nn.adaptive_avg_pool2d", 1, 1, kAdaptiveAttrs, 2, adaptiveEntry<2>, nullptr});
  out.push_back(
      {"graft.nn.adaptive_avg_pool3d", 1, 1, kAdaptiveAttrs, 2, adaptiveEntry<3>, nullptr});
  out.push_back({"graft.nn.batch_norm", 5, 3, kBatchNormAttrs, 6, batchNormEntry, nullptr});
}

} // namespace graft::cuda
