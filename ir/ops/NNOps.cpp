//===- ir/ops/NNOps.cpp - relax.nn activations and normalizations ----------===//
//
// Activations reuse the unary inference (relu on any dtype, the others
// float-only); softmax/log_softmax check the axis; layer_norm/rms_norm check
// the parameters against the normalized axes and keep the data's struct
// info (ndim only when a dim cannot be proven equal). attention checks its
// four BSNH operands against each other as TVM's InferStructInfoAttention
// (src/relax/op/nn/attention.cc) does; attention_var_len (its operands
// concatenated along the sequence axis) reuses those checks.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

llvm::Expected<StructInfo> inferSoftmax(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if (!(*t)->dtype.isVoid() && !(*t)->dtype.isFloat())
    return opError(call, "expects a float tensor, but got " + (*t)->dtype.str());
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  if ((*t)->ndim >= 0)
    if (auto n = normalizeAxis(call, *axis, (*t)->ndim); !n)
      return n.takeError();
  return StructInfo(*t);
}

/// layer_norm (data, gamma, beta) and rms_norm (data, weight): every
/// parameter has one dim per normalized axis, matching data there.
llvm::Expected<StructInfo> inferNorm(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2, 3))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  if (!d->dtype.isVoid() && !d->dtype.isFloat())
    return opError(call, "expects a float tensor, but got " + d->dtype.str());
  auto axesAttr = optIntListAttr(call, "axes");
  if (!axesAttr)
    return axesAttr.takeError();
  llvm::SmallVector<int64_t, 4> given;
  if (*axesAttr)
    given = **axesAttr;
  llvm::SmallVector<int, 4> axes;
  if (d->ndim >= 0) {
    auto n = normalizeAxes(call, given, d->ndim);
    if (!n)
      return n.takeError();
    axes = *n;
  }
  bool unknownShape = false;
  const std::vector<PrimExpr> *dataDims = d->shapeValues();
  for (unsigned i = 1; i < call.args.size(); ++i) {
    auto p = tensorArg(call, i);
    if (!p)
      return p.takeError();
    if (!d->dtype.isVoid() && !(*p)->dtype.isVoid() && (*p)->dtype != d->dtype)
      return opError(call, "expects " + argName(call, i) + " to have the data's dtype " +
                               d->dtype.str() + ", but got " + (*p)->dtype.str());
    if ((*p)->ndim >= 0 && (*p)->ndim != static_cast<int>(given.size()))
      return opError(call, "expects " + argName(call, i) + " to have " +
                               std::to_string(given.size()) + " dimensions, but got " +
                               std::to_string((*p)->ndim));
    const std::vector<PrimExpr> *pDims = (*p)->shapeValues();
    if (!dataDims || !pDims || axes.size() != pDims->size()) {
      unknownShape |= !pDims || !dataDims;
      continue;
    }
    for (size_t k = 0; k < axes.size(); ++k) {
      const PrimExpr &a = (*dataDims)[axes[k]], &b = (*pDims)[k];
      if (proveNotEqual(a, b))
        return opError(call, "expects " + argName(call, i) + " dim " + std::to_string(k) +
                                 " to equal data dim " + std::to_string(axes[k]) + ", but got " +
                                 dimString(b) + " and " + dimString(a));
      unknownShape |= !proveEqual(a, b);
    }
  }
  if (unknownShape)
    return tensorSInfoNDim(d->ndim, d->dtype, d->vdevice);
  return StructInfo(d);
}

/// The dims of attention operand `i` (4-D, BSNH); null when its shape is
/// not known. Errors: not a tensor, or a known rank other than 4.
llvm::Expected<const std::vector<PrimExpr> *> attentionDims(const CallNode &call, unsigned i,
                                                            const TensorSInfoNode *&t) {
  auto arg = tensorArg(call, i);
  if (!arg)
    return arg.takeError();
  t = *arg;
  if (t->ndim >= 0 && t->ndim != 4)
    return opError(call, "expects " + argName(call, i) +
                             " to have 4 dimensions (batch, sequence length, heads, head dim), "
                             "but got " +
                             std::to_string(t->ndim));
  return knownDims(t);
}

/// One dim pair that must be equal: an error when provably different.
llvm::Error attentionEqual(const CallNode &call, const PrimExpr &a, const PrimExpr &b,
                           const std::string &what, unsigned ia, unsigned ib) {
  if (!proveNotEqual(a, b))
    return llvm::Error::success();
  return opError(call, "expects the " + what + " of " + argName(call, ia) + " and " +
                           argName(call, ib) + " to be equal, but got " + dimString(a) + " and " +
                           dimString(b));
}

/// The checks and result of TVM's InferStructInfoAttention over the first
/// `operands` args (query, key, value and the optional bias).
llvm::Expected<StructInfo> attentionSInfo(const CallNode &call, unsigned operands) {
  const TensorSInfoNode *t[4] = {};
  const std::vector<PrimExpr> *d[4] = {};
  for (unsigned i = 0; i < operands; ++i) {
    auto dims = attentionDims(call, i, t[i]);
    if (!dims)
      return dims.takeError();
    d[i] = *dims;
  }
  const AttrValue &mask = attrValue(call, "causal_mask");
  if (!mask.isNone() && (mask.kind() != AttrValue::Kind::String ||
                         (mask.getString() != "TopLeft" && mask.getString() != "BottomRight")))
    return opError(call,
                   "expects causal_mask to be \"TopLeft\", \"BottomRight\" or None, but got " +
                       (mask.kind() == AttrValue::Kind::String ? "\"" + mask.getString() + "\""
                                                               : std::string("another value")));
  const std::vector<PrimExpr> *q = d[0], *v = d[2], *bias = d[3];
  // Each check needs the two operands' shapes; what is unknown passes.
  auto equal = [&](unsigned a, int da, unsigned b, int db, const char *what) -> llvm::Error {
    if (!d[a] || !d[b])
      return llvm::Error::success();
    return attentionEqual(call, (*d[a])[da], (*d[b])[db], what, a, b);
  };
  if (auto err = equal(0, 0, 1, 0, "batch size"))
    return err;
  if (auto err = equal(0, 0, 2, 0, "batch size"))
    return err;
  // Grouped-query attention: the key/value heads divide the query heads.
  for (unsigned i : {1u, 2u}) {
    if (!q || !d[i])
      continue;
    auto nq = asConstInt((*q)[2].get()), nkv = asConstInt((*d[i])[2].get());
    if (nq && nkv && (*nkv <= 0 || *nq % *nkv != 0))
      return opError(call, "expects the number of heads of query to be a multiple of " +
                               argName(call, i) + "'s, but got " + std::to_string(*nq) + " and " +
                               std::to_string(*nkv));
  }
  if (auto err = equal(1, 1, 2, 1, "sequence length"))
    return err;
  if (auto err = equal(0, 3, 1, 3, "head dim"))
    return err;
  if (bias && q) {
    // bias: (B or 1, N or 1, S or 1, S_kv).
    const char *what[] = {"batch size", "number of heads", "sequence length"};
    int qdim[] = {0, 2, 1};
    for (int j = 0; j < 3; ++j) {
      const PrimExpr &b = (*bias)[j];
      auto one = asConstInt(b.get());
      if (proveNotEqual((*q)[qdim[j]], b) && !(one && *one == 1))
        return opError(call, std::string("expects the ") + what[j] +
                                 " of bias to be 1 or the query's " + dimString((*q)[qdim[j]]) +
                                 ", but got " + dimString(b));
    }
  }
  if (auto err = equal(1, 1, 3, 3, "sequence length"))
    return err;
  DataType dtype = t[0]->dtype;
  if (!q || !v)
    return tensorSInfoNDim(4, dtype, t[0]->vdevice);
  return tensorSInfo({(*q)[0], (*q)[1], (*q)[2], (*v)[3]}, dtype, t[0]->vdevice);
}

llvm::Expected<StructInfo> inferAttention(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3, 4))
    return err;
  return attentionSInfo(call, unsigned(call.args.size()));
}

/// relax.nn.attention_var_len: TVM infers it with attention's function,
/// which takes every argument as a tensor; the sequence starts and maximum
/// lengths are otherwise unchecked (their dtype included), as there.
llvm::Expected<StructInfo> inferAttentionVarLen(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 5, 7))
    return err;
  for (unsigned i = 3; i < call.args.size(); ++i)
    if (auto t = tensorArg(call, i); !t)
      return t.takeError();
  return attentionSInfo(call, 3);
}

/// relax.nn.attention_bias, the op TVM makes of an attention call with a
/// bias (and prints): the bias is required.
llvm::Expected<StructInfo> inferAttentionBias(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 4))
    return err;
  return inferAttention(call, ctx);
}

/// nn.prelu: data's sinfo, float only, axis checked against its rank
/// (alpha unchecked, as TVM's inference).
llvm::Expected<StructInfo> inferPRelu(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  if ((*t)->ndim >= 0)
    if (auto n = normalizeAxis(call, *axis, (*t)->ndim); !n)
      return n.takeError();
  if (!(*t)->dtype.isVoid() && !(*t)->dtype.isFloat())
    return opError(call, "expects a float tensor, but got " + (*t)->dtype.str());
  return StructInfo(*t);
}

} // namespace

void graft::registerNNOps() {
  registerOp(makeOp("nn.relu", {arg("data")}, inferUnaryAny, OpPattern::ElemWise));
  for (const char *name : {"nn.gelu", "nn.gelu_tanh", "nn.silu", "nn.selu"})
    registerOp(makeOp(name, {arg("data")}, inferUnaryFloat, OpPattern::ElemWise));
  // ElemWise as topi's leaky_relu; their attributes keep them out of
  // fuse-elementwise (transforms/FusedOps.cpp).
  registerOp(makeOp("nn.leakyrelu",
                    {arg("data"), attr("alpha", AttrKind::Float, AttrValue::floating(0.01))},
                    inferUnaryFloat, OpPattern::ElemWise));
  registerOp(makeOp("nn.softplus",
                    {arg("data"), attr("beta", AttrKind::Float, AttrValue::floating(1.0)),
                     attr("threshold", AttrKind::Float, AttrValue::floating(20.0))},
                    inferUnaryFloat, OpPattern::ElemWise));
  registerOp(makeOp("nn.prelu", {arg("data"), arg("alpha"), attr("axis", AttrKind::Int, intVal(1))},
                    inferPRelu, OpPattern::Broadcast));
  for (const char *name : {"nn.softmax", "nn.log_softmax"})
    registerOp(makeOp(name, {arg("data"), attr("axis", AttrKind::Int, intVal(-1))}, inferSoftmax,
                      OpPattern::OutEWiseFusable));
  registerOp(makeOp("nn.layer_norm",
                    {arg("data"), arg("gamma"), arg("beta"), reqListAttr("axes", AttrKind::IntList),
                     attr("epsilon", AttrKind::Float, AttrValue::floating(1e-5)),
                     attr("center", AttrKind::Bool, boolVal(true)),
                     attr("scale", AttrKind::Bool, boolVal(true))},
                    inferNorm, OpPattern::Opaque));
  registerOp(
      makeOp("nn.rms_norm",
             {arg("data"), arg("weight"), listAttr("axes", AttrKind::IntList, intListVal({-1})),
              attr("epsilon", AttrKind::Float, AttrValue::floating(1e-5))},
             inferNorm, OpPattern::Opaque));
  // TVM makes a call with a bias relax.nn.attention_bias (registered too, as
  // TVM prints it); here R.nn.attention also takes the bias as an optional
  // fourth argument (docs/ops.md).
  registerOp(makeOp("nn.attention",
                    {arg("query"), arg("key"), arg("value"), optArg("bias"),
                     attr("scale", AttrKind::FloatOrNone, noneVal()),
                     attr("causal_mask", AttrKind::String, noneVal()),
                     attr("window_size", AttrKind::OptionalInt, noneVal())},
                    inferAttention, OpPattern::Opaque));
  registerOp(makeOp("nn.attention_bias",
                    {arg("query"), arg("key"), arg("value"), arg("bias"),
                     attr("scale", AttrKind::FloatOrNone, noneVal()),
                     attr("causal_mask", AttrKind::String, noneVal()),
                     attr("window_size", AttrKind::OptionalInt, noneVal())},
                    inferAttentionBias, OpPattern::Opaque));
  // TVM's Python wrapper order (python/tvm/relax/op/nn/nn.py): max_seqlen_q
  // before seqstart_k; the key's defaults are the query's (docs/ops.md).
  registerOp(makeOp("nn.attention_var_len",
                    {arg("queries"), arg("keys"), arg("values"), arg("seqstart_q"),
                     arg("max_seqlen_q"), optArg("seqstart_k"), optArg("max_seqlen_k"),
                     attr("scale", AttrKind::FloatOrNone, noneVal()),
                     attr("causal_mask", AttrKind::String, noneVal()),
                     attr("window_size", AttrKind::OptionalInt, noneVal())},
                    inferAttentionVarLen, OpPattern::Opaque));
}
