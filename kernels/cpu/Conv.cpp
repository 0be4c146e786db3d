//===- kernels/cpu/Conv.cpp - Convolutions, pools and batch norm ----------===//
//
// nn.conv1d/2d/3d, nn.conv1d/2d_transpose, nn.max_pool1d/2d/3d,
// nn.avg_pool1d/2d/3d, nn.adaptive_avg_pool1d/2d/3d and nn.batch_norm on
// floating tensors, direct loops over the output. The window arithmetic is
// kernels/ConvGeometry.h, shared with the CUDA kernels; layouts are any
// permutation of the canonical axes (NCHW, NHWC, OIHW, HWIO, ...). Sums
// accumulate in double and each output is rounded once to its dtype.
//
//===----------------------------------------------------------------------===//

#include "kernels/ConvGeometry.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

/// The geometry's view of `v`: its shape and element strides.
struct Desc {
  Dims strides;
  conv::TensorDesc desc;
  explicit Desc(const View &v) {
    for (int64_t s : v.strides)
      strides.push_back(s / v.elemSize());
    desc = {int(v.ndim()), v.shape.data(), strides.data()};
  }
};

bool checkFloatTensors(Ctx &ctx) {
  for (size_t i = 0; i < ctx.numIn(); ++i)
    if (!isFloatType(ctx.inType(i)))
      return ctx.fail("takes floating-point tensors, got input " + llvm::Twine(i) + " of dtype " +
                      dtypeName(ctx.in(i).dtype));
  for (size_t i = 0; i < ctx.numOut(); ++i)
    if (!isFloatType(ctx.outType(i)))
      return ctx.fail("takes floating-point tensors, got output " + llvm::Twine(i) + " of dtype " +
                      dtypeName(ctx.out(i).dtype));
  return true;
}

std::vector<int64_t> listOf(Ctx &ctx, size_t i, llvm::StringRef name) {
  Dims d = ctx.intListAttr(i, name);
  return std::vector<int64_t>(d.begin(), d.end());
}

/// Walks the output of `g`, storing compute(n, c, o) rounded to the
/// output's dtype; `load(tensor, offset)` reads the inputs as doubles.
template <class Compute>
void forEachOutput(const conv::Geometry &g, const View &out, Compute &&compute) {
  Storer<double> store = storerFor<double>(out.type);
  int64_t es = out.elemSize();
  for (int64_t i = 0, total = g.outNumel(); i < total; ++i) {
    int64_t n, c, o[conv::kSlots];
    g.outIndex(i, n, c, o);
    store(out.data + g.outOffset(n, c, o) * es, compute(n, c, o));
  }
}

/// Reads element `offset` of input 0 or 1 as a double.
struct Loads {
  Loader<double> fn[2];
  const char *base[2];
  int64_t size[2];
  double operator()(int t, int64_t offset) const { return fn[t](base[t] + offset * size[t]); }
};

Loads loadsOf(llvm::ArrayRef<View> in) {
  Loads l{};
  for (size_t t = 0; t < in.size() && t < 2; ++t) {
    l.fn[t] = loaderFor<double>(in[t].type);
    l.base[t] = in[t].data;
    l.size[t] = in[t].elemSize();
  }
  return l;
}

template <int S, bool Transpose> llvm::Error convKernel(const KernelArgs &args) {
  static const std::string symbol =
      "graft.nn.conv" + std::to_string(S) + "d" + (Transpose ? "_transpose" : "");
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(2, 1) || !checkFloatTensors(ctx))
    return ctx.error();
  size_t a = 0;
  conv::ConvAttrs attrs;
  attrs.strides = listOf(ctx, a++, "strides");
  attrs.padding = listOf(ctx, a++, "padding");
  if (Transpose)
    attrs.outputPadding = listOf(ctx, a++, "output_padding");
  attrs.dilation = listOf(ctx, a++, "dilation");
  attrs.groups = ctx.intAttr(a++, "groups", 1);
  std::string dc = conv::dataCanonical(S);
  attrs.dataLayout = ctx.strAttr(a++, "data_layout", dc);
  attrs.kernelLayout = ctx.strAttr(a++, "kernel_layout", (Transpose ? "IO" : "OI") + dc.substr(2));
  attrs.outLayout = ctx.strAttr(a++, "out_layout", "");
  if (!ctx.ok())
    return ctx.error();
  View data = ctx.inView(0), weight = ctx.inView(1), out = ctx.outView(0);
  Desc dd(data), wd(weight), od(out);
  conv::Geometry g;
  std::string err = conv::convGeometry(S, Transpose, dd.desc, wd.desc, od.desc, attrs, g);
  if (!err.empty())
    return ctx.reject(err);
  Loads load = loadsOf({data, weight});
  forEachOutput(g, out, [&](int64_t n, int64_t c, const int64_t(&o)[conv::kSlots]) {
    return Transpose ? conv::convTransposeAt<double>(g, n, c, o, load)
                     : conv::convAt<double>(g, n, c, o, load);
  });
  return llvm::Error::success();
}

/// The most negative finite value of a float dtype: what TOPI pads a max
/// pool with (a window without any data element yields it).
double lowestOf(ScalarType t) {
  switch (t) {
  case ScalarType::Float16:
    return -65504.0;
  case ScalarType::BFloat16:
    return -double(std::bit_cast<float>(0x7f7f0000u));
  case ScalarType::Float32:
    return -double(std::numeric_limits<float>::max());
  default:
    return -std::numeric_limits<double>::max();
  }
}

template <int S, bool Max> llvm::Error poolKernel(const KernelArgs &args) {
  static const std::string symbol =
      std::string(Max ? "graft.nn.max_pool" : "graft.nn.avg_pool") + std::to_string(S) + "d";
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(1, 1) || !checkFloatTensors(ctx) ||
      !ctx.expectSameType(ctx.outType(0), ctx.inType(0), "output 0"))
    return ctx.error();
  conv::PoolAttrs attrs;
  attrs.poolSize = listOf(ctx, 0, "pool_size");
  attrs.strides = listOf(ctx, 1, "strides");
  attrs.padding = listOf(ctx, 2, "padding");
  attrs.dilation = listOf(ctx, 3, "dilation");
  attrs.ceilMode = ctx.boolAttr(4, "ceil_mode", false);
  attrs.countIncludePad = ctx.boolAttr(5, "count_include_pad", false);
  attrs.layout = ctx.strAttr(6, "layout", conv::dataCanonical(S));
  attrs.outLayout = ctx.strAttr(7, "out_layout", "");
  if (!ctx.ok())
    return ctx.error();
  View data = ctx.inView(0), out = ctx.outView(0);
  Desc dd(data), od(out);
  conv::Geometry g;
  std::string err = conv::poolGeometry(S, false, dd.desc, od.desc, attrs, g);
  if (!err.empty())
    return ctx.reject(err);
  Loads load = loadsOf({data});
  double lowest = lowestOf(data.type);
  forEachOutput(g, out, [&](int64_t n, int64_t c, const int64_t(&o)[conv::kSlots]) {
    return conv::poolAt<Max, double>(g, n, c, o, attrs.countIncludePad, lowest, load);
  });
  return llvm::Error::success();
}

/// A pool's padding as (before..., after...): one value for every side, or
/// one per spatial dim for both sides (TVM's backward pools keep it as
/// written).
std::vector<int64_t> fullPadding(std::vector<int64_t> p, size_t s) {
  if (p.size() == 1)
    return std::vector<int64_t>(2 * s, p[0]);
  if (p.size() == s && s > 1)
    p.insert(p.end(), p.begin(), p.begin() + s);
  return p;
}

/// grad.max_pool2d_backward / grad.avg_pool2d_backward(output_grad, data):
/// the gradient with respect to data, one data element at a time.
template <bool Max> llvm::Error poolBackwardKernel(const KernelArgs &args) {
  Ctx ctx(args, Max ? "graft.grad.max_pool2d_backward" : "graft.grad.avg_pool2d_backward");
  if (!ctx.checkArity(2, 1) || !checkFloatTensors(ctx))
    return ctx.error();
  conv::PoolAttrs attrs;
  attrs.poolSize = listOf(ctx, 0, "pool_size");
  attrs.strides = listOf(ctx, 1, "strides");
  attrs.padding = fullPadding(listOf(ctx, 2, "padding"), 2);
  attrs.dilation = listOf(ctx, 3, "dilation");
  attrs.ceilMode = ctx.boolAttr(4, "ceil_mode", false);
  attrs.countIncludePad = ctx.boolAttr(5, "count_include_pad", false);
  attrs.layout = ctx.strAttr(6, "layout", "NCHW");
  attrs.outLayout = ctx.strAttr(7, "out_layout", "");
  View grad = ctx.inView(0), data = ctx.inView(1), out = ctx.outView(0);
  if (!ctx.ok() || !ctx.expectSameType(grad.type, data.type, "output_grad") ||
      !ctx.expectSameType(out.type, data.type, "output 0") || !ctx.expectOutShape(0, data.shape))
    return ctx.error();
  Desc dd(data), gd(grad), od(out);
  conv::Geometry g;
  std::string err = conv::poolGeometry(2, false, dd.desc, gd.desc, attrs, g);
  int64_t shape[conv::kRank], strides[conv::kRank];
  if (err.empty())
    err = conv::canonicalize(od.desc, attrs.layout, "NCHW", "output", shape, strides);
  if (!err.empty())
    return ctx.reject(err);
  Loads load = loadsOf({data, grad});
  Storer<double> store = storerFor<double>(out.type);
  int64_t es = out.elemSize();
  for (int64_t flat = 0, total = out.numel(); flat < total; ++flat) {
    int64_t i[conv::kSlots], r = flat;
    for (int s = conv::kSlots - 1; s >= 0; --s) {
      i[s] = r % shape[2 + s];
      r /= shape[2 + s];
    }
    int64_t c = r % shape[1], n = r / shape[1];
    int64_t at =
        n * strides[0] + c * strides[1] + i[0] * strides[2] + i[1] * strides[3] + i[2] * strides[4];
    store(out.data + at * es,
          conv::poolGradAt<Max, double>(g, n, c, i, attrs.countIncludePad, load));
  }
  return llvm::Error::success();
}

template <int S> llvm::Error adaptiveKernel(const KernelArgs &args) {
  static const std::string symbol = "graft.nn.adaptive_avg_pool" + std::to_string(S) + "d";
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(1, 1) || !checkFloatTensors(ctx) ||
      !ctx.expectSameType(ctx.outType(0), ctx.inType(0), "output 0"))
    return ctx.error();
  conv::PoolAttrs attrs;
  attrs.layout = ctx.strAttr(0, "layout", conv::dataCanonical(S));
  attrs.outLayout = ctx.strAttr(1, "out_layout", "");
  if (!ctx.ok())
    return ctx.error();
  View data = ctx.inView(0), out = ctx.outView(0);
  Desc dd(data), od(out);
  conv::Geometry g;
  std::string err = conv::poolGeometry(S, true, dd.desc, od.desc, attrs, g);
  if (!err.empty())
    return ctx.reject(err);
  Loads load = loadsOf({data});
  forEachOutput(g, out, [&](int64_t n, int64_t c, const int64_t(&o)[conv::kSlots]) {
    return conv::adaptiveAt<double>(g, n, c, o, load);
  });
  return llvm::Error::success();
}

/// TOPI's batch_norm: normalize along `axis` with the batch's statistics
/// (training: biased variance, moving statistics updated by momentum) or
/// the moving ones (inference: returned unchanged).
llvm::Error batchNormKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.batch_norm");
  if (!ctx.checkArity(5, 3) || !checkFloatTensors(ctx))
    return ctx.error();
  View data = ctx.inView(0), out = ctx.outView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 1), data.ndim());
  double eps = ctx.floatAttr(1, "epsilon", 1e-5);
  bool center = ctx.boolAttr(2, "center", true);
  bool scale = ctx.boolAttr(3, "scale", true);
  double momentum = ctx.floatAttr(4, "momentum", 0.1);
  bool training = ctx.boolAttr(5, "training", true);
  if (!axis || !ctx.ok() || !ctx.expectOutShape(0, data.shape))
    return ctx.error();
  int64_t channels = data.shape[*axis];
  static const char *const kParams[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (size_t i = 1; i < 5; ++i)
    if (ctx.in(i).ndim != 1 || ctx.in(i).shape[0] != channels)
      return ctx.reject(llvm::Twine(kParams[i - 1]) + " must have the shape " +
                        shapeStr({channels}) + " of the data's axis " + llvm::Twine(*axis) +
                        ", got " + shapeStr(shapeOf(ctx.in(i))));
  for (size_t i = 1; i < 3; ++i)
    if (!ctx.expectOutShape(i, {channels}))
      return ctx.error();
  if (training && !(momentum >= 0 && momentum <= 1))
    return ctx.reject("momentum must be in [0, 1], got " + std::to_string(momentum));
  View in[5];
  for (size_t i = 0; i < 5; ++i)
    in[i] = ctx.inView(i);
  View movMeanOut = ctx.outView(1), movVarOut = ctx.outView(2);
  Loader<double> load[5];
  for (size_t i = 0; i < 5; ++i)
    load[i] = loaderFor<double>(in[i].type);
  Storer<double> store = storerFor<double>(out.type);
  Storer<double> storeMean = storerFor<double>(movMeanOut.type);
  Storer<double> storeVar = storerFor<double>(movVarOut.type);
  double count = double(data.numel() / std::max<int64_t>(channels, 1));
  // Every channel's statistics first: the moving outputs may alias inputs.
  std::vector<double> mean(static_cast<size_t>(channels)), var(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    double movMean = load[3](in[3].data + c * in[3].strides[0]);
    double movVar = load[4](in[4].data + c * in[4].strides[0]);
    if (!training) {
      mean[c] = movMean;
      var[c] = movVar;
      continue;
    }
    View slice = data.at(*axis, c);
    double sum = 0, sq = 0;
    forEach<1>(slice.shape, {&slice},
               [&](const std::array<char *, 1> &p) { sum += load[0](p[0]); });
    double m = count > 0 ? sum / count : 0;
    forEach<1>(slice.shape, {&slice}, [&](const std::array<char *, 1> &p) {
      double d = load[0](p[0]) - m;
      sq += d * d;
    });
    mean[c] = m;
    var[c] = count > 0 ? sq / count : 0;
  }
  for (int64_t c = 0; c < channels; ++c) {
    double movMean = load[3](in[3].data + c * in[3].strides[0]);
    double movVar = load[4](in[4].data + c * in[4].strides[0]);
    double g = scale ? load[1](in[1].data + c * in[1].strides[0]) : 1.0;
    double b = center ? load[2](in[2].data + c * in[2].strides[0]) : 0.0;
    double inv = 1.0 / std::sqrt(var[c] + eps);
    View src = data.at(*axis, c), dst = out.at(*axis, c);
    forEach<2>(src.shape, {&src, &dst}, [&](const std::array<char *, 2> &p) {
      store(p[1], (load[0](p[0]) - mean[c]) * inv * g + b);
    });
    storeMean(movMeanOut.data + c * movMeanOut.strides[0],
              training ? (1 - momentum) * movMean + momentum * mean[c] : movMean);
    storeVar(movVarOut.data + c * movVarOut.strides[0],
             training ? (1 - momentum) * movVar + momentum * var[c] : movVar);
  }
  return llvm::Error::success();
}

const llvm::StringRef kConvAttrs[] = {"strides",     "padding",       "dilation",  "groups",
                                      "data_layout", "kernel_layout", "out_layout"};
const llvm::StringRef kConvTransposeAttrs[] = {"strides",       "padding",   "output_padding",
                                               "dilation",      "groups",    "data_layout",
                                               "kernel_layout", "out_layout"};
const llvm::StringRef kPoolAttrs[] = {"pool_size", "strides",           "padding", "dilation",
                                      "ceil_mode", "count_include_pad", "layout",  "out_layout"};
const llvm::StringRef kAdaptiveAttrs[] = {"layout", "out_layout"};
const llvm::StringRef kBatchNormAttrs[] = {"axis",  "epsilon",  "center",
                                           "scale", "momentum", "training"};

} // namespace

void registerConvKernels() {
  static const KernelInfo kernels[] = {
      {"graft.nn.conv1d", 2, 1, kConvAttrs, &convKernel<1, false>},
      {"graft.nn.conv2d", 2, 1, kConvAttrs, &convKernel<2, false>},
      {"graft.nn.conv3d", 2, 1, kConvAttrs, &convKernel<3, false>},
      {"graft.nn.conv1d_transpose", 2, 1, kConvTransposeAttrs, &convKernel<1, true>},
      {"graft.nn.conv2d_transpose", 2, 1, kConvTransposeAttrs, &convKernel<2, true>},
      {"graft.nn.max_pool1d", 1, 1, kPoolAttrs, &poolKernel<1, true>},
      {"graft.nn.max_pool2d", 1, 1, kPoolAttrs, &poolKernel<2, true>},
      {"graft.nn.max_pool3d", 1, 1, kPoolAttrs, &poolKernel<3, true>},
      {"graft.nn.avg_pool1d", 1, 1, kPoolAttrs, &poolKernel<1, false>},
      {"graft.nn.avg_pool2d", 1, 1, kPoolAttrs, &poolKernel<2, false>},
      {"graft.nn.avg_pool3d", 1, 1, kPoolAttrs, &poolKernel<3, false>},
      {"graft.grad.max_pool2d_backward", 2, 1, kPoolAttrs, &poolBackwardKernel<true>},
      {"graft.grad.avg_pool2d_backward", 2, 1, kPoolAttrs, &poolBackwardKernel<false>},
      {"graft.nn.adaptive_avg_pool1d", 1, 1, kAdaptiveAttrs, &adaptiveKernel<1>},
      {"graft.nn.adaptive_avg_pool2d", 1, 1, kAdaptiveAttrs, &adaptiveKernel<2>},
      {"graft.nn.adaptive_avg_pool3d", 1, 1, kAdaptiveAttrs, &adaptiveKernel<3>},
      {"graft.nn.batch_norm", 5, 3, kBatchNormAttrs, &batchNormKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
