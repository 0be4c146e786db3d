//===- ir/ops/NNOps.cpp - relax.nn activations and normalizations ----------===//
//
// Activations reuse the unary inference (relu on any dtype, the others
// float-only); softmax/log_softmax check the axis; layer_norm/rms_norm check
// the parameters against the normalized axes and keep the data's struct
// info (ndim only when a dim cannot be proven equal).
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

} // namespace

void graft::registerNNOps() {
  registerOp(makeOp("nn.relu", {arg("data")}, inferUnaryAny, OpPattern::ElemWise));
  for (const char *name : {"nn.gelu", "nn.gelu_tanh", "nn.silu"})
    registerOp(makeOp(name, {arg("data")}, inferUnaryFloat, OpPattern::ElemWise));
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
}
