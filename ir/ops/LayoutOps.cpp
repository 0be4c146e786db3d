//===- ir/ops/LayoutOps.cpp - relax.layout_transform ------------------------===//
//
// layout_transform moves a tensor's elements through an index map (TVM's
// InferStructInfoLayoutTransform, src/relax/op/tensor/manipulate.cc): the
// map's parameters must match the input's rank, and the output shape is the
// extent of each mapped index over the input's box (ir/IndexMap.h). Without
// a known shape, or for an index form graft does not bound, only the ndim.
//
//===----------------------------------------------------------------------===//

#include "ir/IndexMap.h"
#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

llvm::Expected<StructInfo> inferLayoutTransform(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  const AttrValue &mapAttr = attrValue(call, "index_map");
  if (mapAttr.kind() != AttrValue::Kind::IndexMap)
    return opError(call, "expects index_map to be an index map");
  const IndexMapNode &map = *mapAttr.getIndexMap();
  const AttrValue &pad = attrValue(call, "pad_value");
  if (pad.kind() == AttrValue::Kind::Prim && !(*t)->dtype.isVoid() &&
      pad.getPrim()->dtype != (*t)->dtype)
    return opError(call, "expects pad_value to have the input's dtype " + (*t)->dtype.str() +
                             ", but got " + pad.getPrim()->dtype.str());
  int outNDim = static_cast<int>(map.final.size());
  if ((*t)->ndim < 0)
    return tensorSInfoNDim(outNDim, (*t)->dtype, (*t)->vdevice);
  if (static_cast<size_t>((*t)->ndim) != map.initial.size())
    return opError(call, "expects the input's number of dimensions to equal the index map's "
                         "number of parameters, but got " +
                             std::to_string((*t)->ndim) + " and " +
                             std::to_string(map.initial.size()));
  const std::vector<PrimExpr> *dims = knownDims(*t);
  if (!dims)
    return tensorSInfoNDim(outNDim, (*t)->dtype, (*t)->vdevice);
  auto shape = mapShape(map, *dims);
  if (!shape)
    return tensorSInfoNDim(outNDim, (*t)->dtype, (*t)->vdevice);
  return tensorSInfo(std::move(*shape), (*t)->dtype, (*t)->vdevice);
}

} // namespace

void graft::registerLayoutOps() {
  // The pattern of TVM's layout_transform: each output element reads one input element.
  registerOp(makeOp("layout_transform",
                    {arg("x"), reqAttr("index_map", AttrKind::IndexMap),
                     attr("pad_value", AttrKind::Any, noneVal()),
                     listAttr("axis_separators", AttrKind::IntList, intListVal({})),
                     listAttr("input_axis_separators", AttrKind::IntList, intListVal({}))},
                    inferLayoutTransform, OpPattern::Injective));
}
