//===- kernels/cpu/NN.cpp - softmax and normalization ---------------------===//
//
// nn.softmax, nn.log_softmax, nn.layer_norm and nn.rms_norm on floating
// tensors. Statistics are computed in double and each output is rounded
// once to its dtype, so half types lose nothing beyond their final store.
// (The elementwise activations nn.relu/gelu/gelu_tanh/silu live with the
// unary rows of ElementwiseOps.def.)
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

bool checkFloat(Ctx &ctx) {
  ScalarType t = ctx.inType(0);
  if (!isFloatType(t))
    return ctx.fail("takes a floating-point tensor, got " + dtypeName(dlTypeOf(t)));
  return ctx.expectSameType(ctx.outType(0), t, "output 0") &&
         ctx.expectOutShape(0, ctx.inView(0).shape);
}

template <bool Log> llvm::Error softmaxKernel(const KernelArgs &args) {
  Ctx ctx(args, Log ? "graft.nn.log_softmax" : "graft.nn.softmax");
  if (!ctx.checkArity(1, 1) || !checkFloat(ctx))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  if (in.ndim() == 0) { // softmax of a scalar is over a one-element row.
    in.shape = out.shape = {1};
    in.strides = out.strides = {0};
  }
  auto axis = ctx.axis(ctx.intAttr(0, "axis", -1), in.ndim());
  if (!axis)
    return ctx.error();
  int64_t n = in.shape[*axis], si = in.strides[*axis], so = out.strides[*axis];
  Loader<double> load = loaderFor<double>(in.type);
  Storer<double> store = storerFor<double>(out.type);
  forEachRow<2>({&in, &out}, *axis, [&](const std::array<char *, 2> &p) {
    double mx = -INFINITY;
    for (int64_t i = 0; i < n; ++i)
      mx = std::max(mx, load(p[0] + i * si));
    double sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += std::exp(load(p[0] + i * si) - mx);
    for (int64_t i = 0; i < n; ++i) {
      double z = load(p[0] + i * si) - mx;
      store(p[1] + i * so, Log ? z - std::log(sum) : std::exp(z) / sum);
    }
  });
  return llvm::Error::success();
}

/// A float64 view of one constant, broadcast to any shape (stride 0), for
/// an absent gamma or beta.
View constantView(const double &v, size_t rank) {
  View r;
  r.type = ScalarType::Float64;
  r.data = const_cast<char *>(reinterpret_cast<const char *>(&v));
  r.shape.assign(rank, 1);
  r.strides.assign(rank, 0);
  return r;
}

/// Layer norm and RMS norm share the walk: outer elements x the
/// normalized axes, in the order the axes attr lists them (the order of
/// gamma's dims).
template <bool Rms> llvm::Error normKernel(const KernelArgs &args) {
  Ctx ctx(args, Rms ? "graft.nn.rms_norm" : "graft.nn.layer_norm");
  if (!ctx.checkArity(Rms ? 2 : 3, 1) || !checkFloat(ctx))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  Dims axes = ctx.intListAttr(0, "axes");
  double eps = ctx.floatAttr(1, "epsilon", 1e-5);
  bool center = !Rms && ctx.boolAttr(2, "center", true);
  bool scale = Rms || ctx.boolAttr(3, "scale", true);
  if (!ctx.ok() || !normalizeAxes(ctx, axes, in.ndim()))
    return ctx.error();
  Dims perm, inner;
  for (int64_t &a : axes)
    a = a < 0 ? a + in.ndim() : a;
  for (int64_t d = 0; d < in.ndim(); ++d)
    if (!llvm::is_contained(axes, d))
      perm.push_back(d);
  size_t outerRank = perm.size();
  perm.append(axes.begin(), axes.end());
  for (int64_t a : axes)
    inner.push_back(in.shape[a]);
  static const double one = 1.0, zero = 0.0;
  View gamma = scale ? ctx.inView(1) : constantView(one, inner.size());
  View beta = center ? ctx.inView(2) : constantView(zero, inner.size());
  auto g = ctx.broadcast(gamma, inner, Rms ? "weight" : "gamma");
  auto b = ctx.broadcast(beta, inner, "beta");
  if (!g || !b)
    return ctx.error();
  if (gamma.ndim() != int64_t(inner.size()) || beta.ndim() != int64_t(inner.size()))
    return ctx.reject("gamma and beta must have the shape " + shapeStr(inner) +
                      " of the normalized axes");
  View pin = in.permuted(perm), pout = out.permuted(perm);
  Dims outerIdx, innerIdx;
  for (size_t d = 0; d < perm.size(); ++d)
    (d < outerRank ? outerIdx : innerIdx).push_back(int64_t(d));
  View oin = pin.select(outerIdx), oout = pout.select(outerIdx);
  View iin = pin.select(innerIdx), iout = pout.select(innerIdx);
  double count = double(numelOf(inner));
  Loader<double> load = loaderFor<double>(in.type);
  Loader<double> loadG = loaderFor<double>(g->type), loadB = loaderFor<double>(b->type);
  Storer<double> store = storerFor<double>(out.type);
  forEach<2>(oin.shape, {&oin, &oout}, [&](const std::array<char *, 2> &p) {
    iin.data = p[0];
    iout.data = p[1];
    double mean = 0, sq = 0;
    forEach<1>(inner, {&iin}, [&](const std::array<char *, 1> &q) { mean += load(q[0]); });
    mean = Rms ? 0.0 : mean / count;
    forEach<1>(inner, {&iin}, [&](const std::array<char *, 1> &q) {
      double d = load(q[0]) - mean;
      sq += d * d;
    });
    double inv = 1.0 / std::sqrt(sq / count + eps);
    forEach<4>(inner, {&iin, &iout, &*g, &*b}, [&](const std::array<char *, 4> &q) {
      store(q[1], (load(q[0]) - mean) * inv * loadG(q[2]) + loadB(q[3]));
    });
  });
  return llvm::Error::success();
}

const llvm::StringRef kSoftmaxAttrs[] = {"axis"};
const llvm::StringRef kLayerNormAttrs[] = {"axes", "epsilon", "center", "scale"};
const llvm::StringRef kRmsNormAttrs[] = {"axes", "epsilon"};

} // namespace

void registerNNKernels() {
  static const KernelInfo kernels[] = {
      {"graft.nn.softmax", 1, 1, kSoftmaxAttrs, &softmaxKernel<false>},
      {"graft.nn.log_softmax", 1, 1, kSoftmaxAttrs, &softmaxKernel<true>},
      {"graft.nn.layer_norm", 3, 1, kLayerNormAttrs, &normKernel<false>},
      {"graft.nn.rms_norm", 2, 1, kRmsNormAttrs, &normKernel<true>},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
