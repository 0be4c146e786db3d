//===- kernels/cpu/Training.cpp - Losses, dropout, channel norms, take grad ===//
//
// nn.nll_loss, nn.cross_entropy_with_logits, nn.dropout (inference),
// nn.group_norm, nn.instance_norm, grad.nll_loss_backward and
// grad.take_backward, as TVM v0.23's legalizations compute them (TOPI's
// nll_loss, the te functions of python/tvm/relax/transform/legalize_ops/
// nn.py and grad.py). Every tensor is read through its strides by
// row-major flat index; statistics and sums run in double (integers in
// int64 for take_backward) and each output is rounded once to its dtype.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cmath>
#include <cstring>

namespace graft::kernels::cpu {
namespace {

bool expectFloat(Ctx &ctx, ScalarType t, const llvm::Twine &what) {
  if (isFloatType(t))
    return true;
  return ctx.fail(what + " must be a floating-point tensor, got " + dtypeName(dlTypeOf(t)));
}

/// What nll_loss and its gradient share: predictions (N, C, d...) or (C,),
/// int targets (N, d...) or (), optional weights (C,); the weight of each
/// target (0 where it is ignore_index) and where its prediction lies.
struct NLLProblem {
  View pred, targets;
  int64_t classes = 0, spatial = 1, count = 0;
  std::vector<int64_t> target; ///< Per target element.
  std::vector<double> weight;  ///< Per target element.
  double weightSum = 0;

  /// Flat index in pred of target element j's prediction.
  int64_t predIndex(int64_t j) const {
    int64_t n = j / spatial, s = j % spatial;
    return (n * classes + target[j]) * spatial + s;
  }

  bool init(Ctx &ctx, unsigned predIn, int64_t ignore) {
    pred = ctx.inView(predIn);
    targets = ctx.inView(predIn + 1);
    ScalarType t = pred.type;
    if (!expectFloat(ctx, t, "predictions") || !expectFloat(ctx, ctx.outType(0), "the output"))
      return false;
    if (!isIntType(targets.type))
      return ctx.fail("targets must be an integer tensor, got " +
                      dtypeName(dlTypeOf(targets.type)));
    if (pred.ndim() < 1)
      return ctx.fail("predictions must have at least 1 dimension");
    Dims want;
    if (pred.ndim() == 1) {
      classes = pred.shape[0];
    } else {
      classes = pred.shape[1];
      want.push_back(pred.shape[0]);
      for (int64_t d = 2; d < pred.ndim(); ++d) {
        want.push_back(pred.shape[d]);
        spatial *= pred.shape[d];
      }
    }
    if (targets.shape != want)
      return ctx.fail("targets must have the shape " + shapeStr(want) + ", got " +
                      shapeStr(targets.shape));
    bool weighted = ctx.numIn() > predIn + 2;
    View w;
    if (weighted) {
      w = ctx.inView(predIn + 2);
      if (!ctx.expectSameType(w.type, t, "weights"))
        return false;
      if (w.shape != Dims{classes})
        return ctx.fail("weights must have the shape (" + llvm::Twine(classes) + ",), got " +
                        shapeStr(w.shape));
    }
    Loader<int64_t> loadT = loaderFor<int64_t>(targets.type);
    Loader<double> loadW = loaderFor<double>(t);
    count = targets.numel();
    target.resize(count);
    weight.resize(count);
    for (int64_t j = 0; j < count; ++j) {
      int64_t c = loadT(targets.elementAt(j));
      target[j] = c;
      if (c == ignore) {
        target[j] = 0;
        weight[j] = 0;
        continue;
      }
      if (c < 0 || c >= classes)
        return ctx.fail("target " + llvm::Twine(c) + " is outside [0, " + llvm::Twine(classes) +
                        ") and is not ignore_index " + llvm::Twine(ignore));
      weight[j] = weighted ? loadW(w.elementAt(c)) : 1.0;
      weightSum += weight[j];
    }
    return true;
  }
};

bool readReduction(Ctx &ctx, size_t i, std::string &reduction) {
  reduction = ctx.strAttr(i, "reduction", "mean");
  if (reduction == "none" || reduction == "sum" || reduction == "mean")
    return ctx.ok();
  return ctx.fail("reduction must be \"none\", \"sum\" or \"mean\", got \"" + reduction + "\"");
}

/// out[j] = -pred[n, t_j, d...] * w[t_j]; "sum" adds them, "mean" divides
/// the sum by the weights' sum (TOPI's nll_loss).
llvm::Error nllLossKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.nll_loss");
  if (!ctx.checkArity(-1, 1, 2))
    return ctx.error();
  if (ctx.numIn() > 3)
    return ctx.reject("takes 2 or 3 inputs, got " + llvm::Twine(ctx.numIn()));
  std::string reduction;
  int64_t ignore = ctx.intAttr(1, "ignore_index", -100);
  NLLProblem p;
  if (!readReduction(ctx, 0, reduction) || !p.init(ctx, 0, ignore) ||
      !ctx.expectSameType(ctx.outType(0), p.pred.type, "output 0"))
    return ctx.error();
  bool none = reduction == "none";
  if (!ctx.expectOutShape(0, none ? p.targets.shape : Dims{}))
    return ctx.error();
  Loader<double> load = loaderFor<double>(p.pred.type);
  View out = ctx.outView(0);
  Storer<double> store = storerFor<double>(out.type);
  double sum = 0;
  for (int64_t j = 0; j < p.count; ++j) {
    double loss = p.weight[j] == 0 ? 0.0 : -load(p.pred.elementAt(p.predIndex(j))) * p.weight[j];
    if (none)
      store(out.elementAt(j), loss);
    sum += loss;
  }
  if (!none)
    store(out.data, reduction == "sum" ? sum : sum / p.weightSum);
  return llvm::Error::success();
}

/// The gradient of nll_loss with respect to the predictions: -w[t] times
/// the incoming gradient (per target for "none", the scalar otherwise,
/// divided by the weights' sum for "mean") where each target points, 0
/// elsewhere.
llvm::Error nllLossBackwardKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.grad.nll_loss_backward");
  if (!ctx.checkArity(-1, 1, 3))
    return ctx.error();
  if (ctx.numIn() > 4)
    return ctx.reject("takes 3 or 4 inputs, got " + llvm::Twine(ctx.numIn()));
  std::string reduction;
  int64_t ignore = ctx.intAttr(1, "ignore_index", -100);
  NLLProblem p;
  if (!readReduction(ctx, 0, reduction) || !p.init(ctx, 1, ignore) ||
      !ctx.expectSameType(ctx.outType(0), p.pred.type, "output 0") ||
      !ctx.expectSameType(ctx.inType(0), p.pred.type, "output_grad") ||
      !ctx.expectOutShape(0, p.pred.shape))
    return ctx.error();
  View grad = ctx.inView(0), out = ctx.outView(0);
  bool none = reduction == "none";
  Dims gradShape = none ? p.targets.shape : Dims{};
  if (grad.shape != gradShape)
    return ctx.reject("output_grad must have the shape " + shapeStr(gradShape) + ", got " +
                      shapeStr(grad.shape));
  Loader<double> load = loaderFor<double>(grad.type);
  Storer<double> store = storerFor<double>(out.type);
  for (int64_t i = 0, n = out.numel(); i < n; ++i)
    store(out.elementAt(i), 0.0);
  double scale = reduction == "mean" ? 1.0 / p.weightSum : 1.0;
  for (int64_t j = 0; j < p.count; ++j) {
    if (p.weight[j] == 0)
      continue;
    double g = load(none ? grad.elementAt(j) : grad.data);
    store(out.elementAt(p.predIndex(j)), -p.weight[j] * g * scale);
  }
  return llvm::Error::success();
}

/// -sum(predictions * labels), divided by the batch (dim 0) when the rank
/// is 2 or more.
llvm::Error crossEntropyKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.cross_entropy_with_logits");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View x = ctx.inView(0), y = ctx.inView(1);
  if (!expectFloat(ctx, x.type, "predictions") || !ctx.expectSameType(y.type, x.type, "labels") ||
      !ctx.expectSameType(ctx.outType(0), x.type, "output 0") || !ctx.expectOutShape(0, {}))
    return ctx.error();
  if (x.shape != y.shape)
    return ctx.reject("predictions and labels must have one shape, got " + shapeStr(x.shape) +
                      " and " + shapeStr(y.shape));
  Loader<double> load = loaderFor<double>(x.type);
  double sum = 0;
  for (int64_t i = 0, n = x.numel(); i < n; ++i)
    sum += load(x.elementAt(i)) * load(y.elementAt(i));
  double out = x.ndim() > 1 ? -sum / double(x.shape[0]) : -sum;
  storerFor<double>(x.type)(ctx.outView(0).data, out);
  return llvm::Error::success();
}

/// Inference dropout: the data unchanged and a mask of ones (no element is
/// dropped, none is scaled), in the data's dtype as TVM infers it.
llvm::Error dropoutKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.dropout");
  if (!ctx.checkArity(1, 2))
    return ctx.error();
  View x = ctx.inView(0), out = ctx.outView(0), mask = ctx.outView(1);
  (void)ctx.floatAttr(0, "rate", 0.5);
  if (!ctx.ok() || !ctx.expectSameType(ctx.outType(0), x.type, "output 0") ||
      !ctx.expectSameType(ctx.outType(1), x.type, "output 1") || !ctx.expectOutShape(0, x.shape) ||
      !ctx.expectOutShape(1, x.shape))
    return ctx.error();
  int64_t es = x.elemSize();
  Storer<double> store = storerFor<double>(x.type);
  for (int64_t i = 0, n = x.numel(); i < n; ++i) {
    std::memmove(out.elementAt(i), x.elementAt(i), es);
    store(mask.elementAt(i), 1.0);
  }
  return llvm::Error::success();
}

/// group_norm (Group) and instance_norm: the data split into statistic
/// sets by the dims outside `axes` and the channel's group (instance norm:
/// every channel its own group); each set normalized by its mean and
/// biased variance, then scaled and shifted by gamma/beta per channel.
template <bool Group> llvm::Error channelNormKernel(const KernelArgs &args) {
  Ctx ctx(args, Group ? "graft.nn.group_norm" : "graft.nn.instance_norm");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  size_t a = 0;
  int64_t groups = Group ? ctx.intAttr(a++, "num_groups") : 0;
  int64_t channelAxis = ctx.intAttr(a++, "channel_axis");
  Dims axes = ctx.intListAttr(a++, "axes");
  double eps = ctx.floatAttr(a++, "epsilon", 1e-5);
  bool center = ctx.boolAttr(a++, "center", true);
  bool scale = ctx.boolAttr(a++, "scale", true);
  View x = ctx.inView(0), gamma = ctx.inView(1), beta = ctx.inView(2), out = ctx.outView(0);
  if (!ctx.ok() || !expectFloat(ctx, x.type, "data") ||
      !ctx.expectSameType(gamma.type, x.type, "gamma") ||
      !ctx.expectSameType(beta.type, x.type, "beta") ||
      !ctx.expectSameType(ctx.outType(0), x.type, "output 0") || !ctx.expectOutShape(0, x.shape))
    return ctx.error();
  auto channel = ctx.axis(channelAxis, x.ndim());
  auto norm = normalizeAxes(ctx, axes, x.ndim());
  if (!channel || !norm)
    return ctx.error();
  if (llvm::is_contained(*norm, *channel))
    return ctx.reject("channel_axis must not be among axes");
  int64_t channels = x.shape[*channel];
  if (!Group)
    groups = channels;
  if (groups < 1 || channels % groups)
    return ctx.reject("num_groups " + llvm::Twine(groups) + " must divide the " +
                      llvm::Twine(channels) + " channels");
  if (gamma.shape != Dims{channels} || beta.shape != Dims{channels})
    return ctx.reject("gamma and beta must have the shape (" + llvm::Twine(channels) + ",)");
  // The set of element i: its index over the dims that are neither the
  // channel nor normalized, then its group.
  int64_t ndim = x.ndim(), perGroup = channels / groups;
  int64_t sets = groups;
  for (int64_t d = 0; d < ndim; ++d)
    if (d != *channel && !llvm::is_contained(*norm, d))
      sets *= x.shape[d];
  auto setOf = [&](int64_t flat, int64_t &c) {
    int64_t key = 0, mul = 1, rest = flat;
    c = 0;
    for (int64_t d = ndim - 1; d >= 0; --d) {
      int64_t i = rest % x.shape[d];
      rest /= x.shape[d];
      if (d == *channel) {
        c = i;
      } else if (!llvm::is_contained(*norm, d)) {
        key += i * mul;
        mul *= x.shape[d];
      }
    }
    return key * groups + c / perGroup;
  };
  int64_t n = x.numel();
  std::vector<double> sum(sets, 0.0), sq(sets, 0.0);
  std::vector<int64_t> count(sets, 0);
  Loader<double> load = loaderFor<double>(x.type);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c;
    int64_t s = setOf(i, c);
    sum[s] += load(x.elementAt(i));
    ++count[s];
  }
  for (int64_t s = 0; s < sets; ++s)
    sum[s] = count[s] ? sum[s] / double(count[s]) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t c;
    int64_t s = setOf(i, c);
    double d = load(x.elementAt(i)) - sum[s];
    sq[s] += d * d;
  }
  Storer<double> store = storerFor<double>(out.type);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c;
    int64_t s = setOf(i, c);
    double v = (load(x.elementAt(i)) - sum[s]) / std::sqrt(sq[s] / double(count[s]) + eps);
    if (scale)
      v *= load(gamma.elementAt(c));
    if (center)
      v += load(beta.elementAt(c));
    store(out.elementAt(i), v);
  }
  return llvm::Error::success();
}

/// The gradient of take: zeros of x's shape with each incoming gradient
/// element added where take read it (repeated indices add up). Negative
/// indices count from the end; others out of range are an error.
llvm::Error takeBackwardKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.grad.take_backward");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  View grad = ctx.inView(0), x = ctx.inView(1), idx = ctx.inView(2), out = ctx.outView(0);
  bool flat = !ctx.hasAttr(0);
  int64_t axisAttr = flat ? 0 : ctx.intAttr(0, "axis");
  if (!ctx.ok() || !ctx.expectSameType(grad.type, x.type, "output_grad") ||
      !ctx.expectSameType(ctx.outType(0), x.type, "output 0") || !ctx.expectOutShape(0, x.shape))
    return ctx.error();
  if (x.type == ScalarType::Bool)
    return ctx.reject("takes a numeric tensor, got bool");
  if (!isIntType(idx.type))
    return ctx.reject("indices must be an integer tensor, got " + dtypeName(dlTypeOf(idx.type)));
  int64_t extent = x.numel(), inner = 1;
  Dims want = idx.shape;
  if (!flat) {
    auto axis = ctx.axis(axisAttr, x.ndim());
    if (!axis)
      return ctx.error();
    extent = x.shape[*axis];
    want.assign(x.shape.begin(), x.shape.begin() + *axis);
    want.append(idx.shape.begin(), idx.shape.end());
    for (int64_t d = *axis + 1; d < x.ndim(); ++d) {
      inner *= x.shape[d];
      want.push_back(x.shape[d]);
    }
  }
  if (grad.shape != want)
    return ctx.reject("output_grad must have the shape " + shapeStr(want) + ", got " +
                      shapeStr(grad.shape));
  int64_t ni = idx.numel();
  Loader<int64_t> loadIdx = loaderFor<int64_t>(idx.type);
  std::vector<int64_t> where(ni);
  for (int64_t q = 0; q < ni; ++q) {
    int64_t i = loadIdx(idx.elementAt(q));
    int64_t k = i < 0 ? i + extent : i;
    if (k < 0 || k >= extent)
      return ctx.reject("index " + llvm::Twine(i) + " is out of range for extent " +
                        llvm::Twine(extent));
    where[q] = k;
  }
  auto target = [&](int64_t j) {
    int64_t r = j % inner, q = (j / inner) % ni, p = j / inner / ni;
    return (p * extent + where[q]) * inner + r;
  };
  int64_t n = out.numel(), g = grad.numel();
  if (isFloatType(x.type)) {
    std::vector<double> acc(n, 0.0);
    Loader<double> load = loaderFor<double>(grad.type);
    for (int64_t j = 0; j < g; ++j)
      acc[target(j)] += load(grad.elementAt(j));
    Storer<double> store = storerFor<double>(out.type);
    for (int64_t i = 0; i < n; ++i)
      store(out.elementAt(i), acc[i]);
  } else {
    // Integers add with the wrap-around of their own width.
    std::vector<uint64_t> acc(n, 0);
    Loader<int64_t> load = loaderFor<int64_t>(grad.type);
    for (int64_t j = 0; j < g; ++j)
      acc[target(j)] += uint64_t(load(grad.elementAt(j)));
    Storer<int64_t> store = storerFor<int64_t>(out.type);
    for (int64_t i = 0; i < n; ++i)
      store(out.elementAt(i), int64_t(acc[i]));
  }
  return llvm::Error::success();
}

const llvm::StringRef kLossAttrs[] = {"reduction", "ignore_index"};
const llvm::StringRef kDropoutAttrs[] = {"rate"};
const llvm::StringRef kGroupNormAttrs[] = {"num_groups", "channel_axis", "axes",
                                           "epsilon",    "center",       "scale"};
const llvm::StringRef kInstanceNormAttrs[] = {"channel_axis", "axes", "epsilon", "center", "scale"};
const llvm::StringRef kTakeBackwardAttrs[] = {"axis"};

} // namespace

void registerTrainingKernels() {
  static const KernelInfo kernels[] = {
      {"graft.nn.nll_loss", -1, 1, kLossAttrs, &nllLossKernel},
      {"graft.grad.nll_loss_backward", -1, 1, kLossAttrs, &nllLossBackwardKernel},
      {"graft.nn.cross_entropy_with_logits", 2, 1, {}, &crossEntropyKernel},
      {"graft.nn.dropout", 1, 2, kDropoutAttrs, &dropoutKernel},
      {"graft.nn.group_norm", 3, 1, kGroupNormAttrs, &channelNormKernel<true>},
      {"graft.nn.instance_norm", 3, 1, kInstanceNormAttrs, &channelNormKernel<false>},
      {"graft.grad.take_backward", 3, 1, kTakeBackwardAttrs, &takeBackwardKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
