//===- ir/ops/TrainingOps.cpp - Losses, dropout, norms and gradient ops ----===//
//
// TVM's ops for training graphs and frontend imports: the losses
// nn.nll_loss and nn.cross_entropy_with_logits, nn.dropout, nn.group_norm,
// nn.instance_norm (src/relax/op/nn/nn.cc), the gradient ops grad.no_grad,
// grad.nll_loss_backward, grad.max_pool2d_backward, grad.avg_pool2d_backward
// and grad.take_backward (src/relax/op/tensor/grad.cc), wrap_param
// (tensor/datatype.cc) and call_py_func (op.cc). Inference follows TVM's
// FInferStructInfo of each; the gradient ops take the struct info of the
// tensor they differentiate against, unchecked, as TVM's do.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"

using namespace graft;
using namespace graft::opdef;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// TVM checks reduction in the op's constructor; here inference does.
llvm::Expected<std::string> checkReduction(const CallNode &call) {
  auto reduction = stringAttr(call, "reduction");
  if (!reduction || *reduction == "none" || *reduction == "mean" || *reduction == "sum")
    return reduction;
  return opError(call, "expects reduction to be \"none\", \"mean\" or \"sum\", but got \"" +
                           *reduction + "\"");
}

/// Predictions (N, C, d1..dk) or (C,), targets (N, d1..dk) or (), weights
/// (C,); the loss per target for "none", a scalar otherwise.
llvm::Expected<StructInfo> inferNLLLoss(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2, 3))
    return err;
  const TensorSInfoNode *w = nullptr;
  if (call.args.size() == 3) {
    auto t = tensorArg(call, 2);
    if (!t)
      return t.takeError();
    w = *t;
  }
  auto pred = tensorArg(call, 0);
  if (!pred)
    return pred.takeError();
  auto tgt = tensorArg(call, 1);
  if (!tgt)
    return tgt.takeError();
  auto reduction = checkReduction(call);
  if (!reduction)
    return reduction.takeError();
  const TensorSInfoNode *p = *pred, *t = *tgt;
  DataType dtype = p->dtype;
  VDevice vdevice = p->vdevice;
  if (w) {
    auto d = binaryArithDType(call, p->dtype, w->dtype);
    if (!d)
      return d.takeError();
    auto v = mergeVDevice(call, p->vdevice, w->vdevice);
    if (!v)
      return v.takeError();
    dtype = *d;
    vdevice = *v;
  }
  if (!t->dtype.isVoid() && !t->dtype.isIntegral())
    return opError(call, "expects targets to have an integer dtype, but got " + t->dtype.str());
  int k = -1;
  if (p->ndim >= 0) {
    if (p->ndim < 1)
      return opError(call, "expects predictions to have at least 1 dimension, but got 0");
    k = p->ndim <= 2 ? 0 : p->ndim - 2;
  }
  if (t->ndim >= 0) {
    int kt = t->ndim <= 1 ? 0 : t->ndim - 1;
    if (k >= 0 && k != kt)
      return opError(call, "expects predictions (N, C, d1..dk) and targets (N, d1..dk) to have "
                           "the same k, but got " +
                               str(k) + " and " + str(kt));
  }
  if (w && w->ndim >= 0 && w->ndim != 1)
    return opError(call, "expects weights to have 1 dimension, but got " + str(w->ndim));
  // The batch N and classes C of the predictions, and the per-target shape.
  const std::vector<PrimExpr> *pd = knownDims(p), *td = knownDims(t);
  llvm::Optional<PrimExpr> n, c;
  std::vector<PrimExpr> out;
  if (pd) {
    if (pd->size() == 1) {
      c = (*pd)[0];
    } else {
      n = (*pd)[0];
      c = (*pd)[1];
      out.push_back(*n);
      out.insert(out.end(), pd->begin() + 2, pd->end());
    }
  }
  if (td && td->empty() && n)
    return opError(call, "expects targets of shape (N, d1..dk) for predictions of shape "
                         "(N, C, d1..dk), but got a scalar");
  if (td && !td->empty()) {
    if (n && proveNotEqual(*n, (*td)[0]))
      return opError(call, "expects the batch size N of predictions and targets to be equal, "
                           "but got " +
                               dimString(*n) + " and " + dimString((*td)[0]));
    if (!n && c)
      return opError(call, "expects a scalar target for predictions of shape (C,), but got shape " +
                               shapeString(*td));
    if (pd)
      for (size_t i = 1; i < td->size() && i < out.size(); ++i)
        if (proveNotEqual(out[i], (*td)[i]))
          return opError(call, "expects targets dim " + str(i) + " to equal predictions dim " +
                                   str(i + 1) + ", but got " + dimString((*td)[i]) + " and " +
                                   dimString(out[i]));
  }
  if (w && c)
    if (const std::vector<PrimExpr> *wd = knownDims(w); wd && wd->size() == 1)
      if (proveNotEqual(*c, (*wd)[0]))
        return opError(call, "expects the number of classes C of predictions and weights to be "
                             "equal, but got " +
                                 dimString(*c) + " and " + dimString((*wd)[0]));
  if (*reduction != "none")
    return tensorSInfo({}, dtype, vdevice);
  if (pd)
    return tensorSInfo(std::move(out), dtype, vdevice);
  return tensorSInfoNDim(p->ndim < 0 ? -1 : p->ndim - 1, dtype, vdevice);
}

/// Predictions and labels of one shape; the result is a scalar.
llvm::Expected<StructInfo> inferCrossEntropy(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto pred = tensorArg(call, 0);
  if (!pred)
    return pred.takeError();
  auto label = tensorArg(call, 1);
  if (!label)
    return label.takeError();
  const TensorSInfoNode *p = *pred, *l = *label;
  auto dtype = binaryArithDType(call, p->dtype, l->dtype);
  if (!dtype)
    return dtype.takeError();
  auto vdevice = mergeVDevice(call, p->vdevice, l->vdevice);
  if (!vdevice)
    return vdevice.takeError();
  if (p->ndim >= 0 && l->ndim >= 0 && p->ndim != l->ndim)
    return opError(call, "expects predictions and labels to have the same number of dimensions, "
                         "but got " +
                             str(p->ndim) + " and " + str(l->ndim));
  const std::vector<PrimExpr> *pd = knownDims(p), *ld = knownDims(l);
  if (pd && ld)
    for (size_t i = 0; i < pd->size() && i < ld->size(); ++i)
      if (proveNotEqual((*pd)[i], (*ld)[i]))
        return opError(call, "expects predictions and labels to have the same shape, but dim " +
                                 str(i) + " is " + dimString((*pd)[i]) + " and " +
                                 dimString((*ld)[i]));
  return tensorSInfo({}, *dtype, *vdevice);
}

/// The output and the mask, both of the data's struct info.
llvm::Expected<StructInfo> inferDropout(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return tupleSInfo({StructInfo(*t), StructInfo(*t)});
}

/// group_norm and instance_norm: channel_axis outside the normalized axes;
/// gamma and beta 1-D of the channel count and the data's dtype; the
/// data's struct info. group_norm also wants float data and a channel
/// count the groups divide.
llvm::Expected<StructInfo> inferChannelNorm(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  bool group = call.opInfo()->scriptName() == "nn.group_norm";
  llvm::SmallVector<const TensorSInfoNode *, 3> in;
  for (unsigned i = 0; i < 3; ++i) {
    auto t = tensorArg(call, i);
    if (!t)
      return t.takeError();
    in.push_back(*t);
  }
  const TensorSInfoNode *d = in[0];
  auto channelAxis = intAttr(call, "channel_axis");
  if (!channelAxis)
    return channelAxis.takeError();
  auto axes = optIntListAttr(call, "axes");
  if (!axes)
    return axes.takeError();
  int channel = -1;
  if (d->ndim >= 0) {
    auto c = normalizeAxis(call, *channelAxis, d->ndim);
    if (!c)
      return c.takeError();
    channel = *c;
    auto norm = normalizeAxes(call, *axes ? **axes : llvm::SmallVector<int64_t, 4>(), d->ndim);
    if (!norm)
      return norm.takeError();
    if (llvm::is_contained(*norm, channel))
      return opError(call, "expects channel_axis " + str(channel) +
                               " not to be among the normalized axes");
  }
  if (group && !d->dtype.isVoid() && !d->dtype.isFloat())
    return opError(call, "expects a float tensor, but got " + d->dtype.str());
  const std::vector<PrimExpr> *dims = knownDims(d);
  llvm::Optional<PrimExpr> channels;
  if (dims && channel >= 0)
    channels = (*dims)[channel];
  if (group && channels) {
    auto groups = intAttr(call, "num_groups");
    if (!groups)
      return groups.takeError();
    auto c = asConstInt(channels->get());
    if (*groups <= 0 || (c && *c % *groups != 0))
      return opError(call, "expects num_groups (" + str(*groups) +
                               ") to divide the channel count " + dimString(*channels));
  }
  for (unsigned i = 1; i < 3; ++i) {
    if (!d->dtype.isVoid() && !in[i]->dtype.isVoid() && in[i]->dtype != d->dtype)
      return opError(call, "expects " + argName(call, i) + " to have the data's dtype " +
                               d->dtype.str() + ", but got " + in[i]->dtype.str());
    if (in[i]->ndim >= 0 && in[i]->ndim != 1)
      return opError(call, "expects " + argName(call, i) + " to have 1 dimension, but got " +
                               str(in[i]->ndim));
    const std::vector<PrimExpr> *pd = knownDims(in[i]);
    if (channels && pd && pd->size() == 1 && proveNotEqual(*channels, (*pd)[0]))
      return opError(call, "expects " + argName(call, i) + " to have the channel count " +
                               dimString(*channels) + ", but got " + dimString((*pd)[0]));
  }
  return StructInfo(d);
}

/// The gradient ops: the struct info of argument `I`, the tensor the
/// gradient is taken against.
template <unsigned I, size_t Min, size_t Max>
llvm::Expected<StructInfo> inferLikeArg(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, Min, Max))
    return err;
  if (!call.args[I]->sinfo)
    return opError(call, "expects " + argName(call, I) + " to have struct info");
  return call.args[I]->sinfo;
}

llvm::Expected<StructInfo> inferNLLLossBackward(const CallNode &call, const InferContext &ctx) {
  if (auto reduction = checkReduction(call); !reduction)
    return reduction.takeError();
  return inferLikeArg<1, 3, 4>(call, ctx);
}

llvm::Expected<StructInfo> inferWrapParam(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return withDType(*t, *dtype);
}

/// call_py_func(func_name, args): the one output struct info; the name a
/// string literal and the arguments a tuple (TVM's FValidate).
llvm::Expected<StructInfo> inferCallPyFunc(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  if (call.sinfoArgs.size() != 1)
    return opError(call, "expects exactly one output struct info in sinfo_args, but got " +
                             str(static_cast<int64_t>(call.sinfoArgs.size())));
  if (!llvm::isa<StringImmNode>(call.args[0].get()))
    return opError(call, "expects the name of the Python function as a string literal");
  if (!llvm::isa_and_nonnull<TupleSInfoNode>(call.args[1]->sinfo.get()))
    return opError(call, "expects its arguments as a tuple, but got " +
                             sinfoKindName(call.args[1]->sinfo.get()).str());
  return call.sinfoArgs[0];
}

/// TVM's pool backward constructors set out_layout to layout when None.
llvm::Error defaultOutLayout(std::vector<Expr> &, Attrs &attrs) {
  const AttrValue *out = attrs ? attrs->lookup("out_layout") : nullptr;
  const AttrValue *layout = attrs ? attrs->lookup("layout") : nullptr;
  if (out && out->isNone() && layout)
    attrs = withAttr(attrs.get(), "out_layout", *layout);
  return llvm::Error::success();
}

std::vector<OpParam> lossAttrs() {
  return {attr("reduction", AttrKind::String, strVal("mean")),
          attr("ignore_index", AttrKind::Int, intVal(-100))};
}

std::vector<OpParam> normAttrs() {
  return {attr("epsilon", AttrKind::Float, AttrValue::floating(1e-5)),
          attr("center", AttrKind::Bool, boolVal(true)),
          attr("scale", AttrKind::Bool, boolVal(true))};
}

} // namespace

void graft::registerTrainingOps() {
  // TVM declares no TOpPattern for these: fusion treats them as opaque.
  std::vector<OpParam> nll = {arg("predictions"), arg("targets"), optArg("weights")};
  llvm::append_range(nll, lossAttrs());
  registerOp(makeOp("nn.nll_loss", nll, inferNLLLoss, OpPattern::Opaque));
  registerOp(makeOp("nn.cross_entropy_with_logits", {arg("predictions"), arg("labels")},
                    inferCrossEntropy, OpPattern::Opaque));
  registerOp(makeOp("nn.dropout",
                    {arg("data"), attr("rate", AttrKind::Float, AttrValue::floating(0.5))},
                    inferDropout, OpPattern::Opaque));
  std::vector<OpParam> group = {arg("data"),
                                arg("gamma"),
                                arg("beta"),
                                reqAttr("num_groups", AttrKind::Int),
                                reqAttr("channel_axis", AttrKind::Int),
                                reqListAttr("axes", AttrKind::IntList)};
  llvm::append_range(group, normAttrs());
  registerOp(makeOp("nn.group_norm", group, inferChannelNorm, OpPattern::Opaque));
  std::vector<OpParam> instance = {arg("data"), arg("gamma"), arg("beta"),
                                   reqAttr("channel_axis", AttrKind::Int),
                                   reqAttr("axes", AttrKind::IntList)};
  llvm::append_range(instance, normAttrs());
  registerOp(makeOp("nn.instance_norm", instance, inferChannelNorm, OpPattern::Opaque));

  registerOp(makeOp("grad.no_grad", {arg("input")}, inferLikeArg<0, 1, 1>, OpPattern::Opaque));
  std::vector<OpParam> nllBackward = {arg("output_grad"), arg("predictions"), arg("targets"),
                                      optArg("weights")};
  llvm::append_range(nllBackward, lossAttrs());
  registerOp(
      makeOp("grad.nll_loss_backward", nllBackward, inferNLLLossBackward, OpPattern::Opaque));
  for (const char *name : {"grad.max_pool2d_backward", "grad.avg_pool2d_backward"}) {
    OpInfo pool = makeOp(name,
                         {arg("output_grad"), arg("data"),
                          attr("pool_size", AttrKind::IntList, intListVal({1, 1})),
                          attr("strides", AttrKind::IntList, intListVal({1, 1})),
                          attr("padding", AttrKind::IntList, intListVal({0, 0, 0, 0})),
                          attr("dilation", AttrKind::IntList, intListVal({1, 1})),
                          attr("ceil_mode", AttrKind::Bool, boolVal(false)),
                          attr("count_include_pad", AttrKind::Bool, boolVal(false)),
                          attr("layout", AttrKind::String, strVal("NCHW")),
                          attr("out_layout", AttrKind::String, noneVal())},
                         inferLikeArg<1, 2, 2>, OpPattern::Opaque);
    pool.canonicalize = defaultOutLayout;
    registerOp(pool);
  }
  // TVM's TakeAttrs also has take's mode, which take_backward never sets
  // and its Python wrapper does not take.
  registerOp(makeOp("grad.take_backward",
                    {arg("output_grad"), arg("x"), arg("indices"),
                     attr("axis", AttrKind::OptionalInt, noneVal())},
                    inferLikeArg<1, 3, 3>, OpPattern::Opaque));

  registerOp(makeOp("wrap_param",
                    {arg("data"), attr("dtype", AttrKind::DType, dtypeVal(DataType::float32()))},
                    inferWrapParam, OpPattern::Opaque));
  // TVM prints a call_py_func generically: R.call_py_func("f", (x,),
  // sinfo_args=(...)).
  OpInfo pyFunc = makeOp("call_py_func",
                         {arg("func_name", ParamKind::String), arg("args", ParamKind::ExprTuple)},
                         inferCallPyFunc, OpPattern::Opaque);
  pyFunc.textForm = TextForm::WithSInfoArgs;
  pyFunc.deterministic = false;
  registerOp(pyFunc);
}
