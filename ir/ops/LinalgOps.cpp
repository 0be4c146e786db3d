//===- ir/ops/LinalgOps.cpp - matmul ---------------------------------------===//
//
// matmul with numpy semantics: 1-D operands are promoted (a prepended or
// appended unit dim that the result drops), batch dims broadcast, and the
// reduction lengths must not be provably different. MatmulAttrs(out_dtype),
// void meaning "the binary dtype rule". outer: the product of two 1-D
// tensors, in x1's dtype.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

llvm::Expected<StructInfo> inferMatmul(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto a = tensorArg(call, 0);
  if (!a)
    return a.takeError();
  auto b = tensorArg(call, 1);
  if (!b)
    return b.takeError();
  auto outDType = dtypeAttr(call, "out_dtype");
  if (!outDType)
    return outDType.takeError();
  DataType dtype = *outDType;
  if (dtype.isVoid()) {
    auto dt = binaryArithDType(call, (*a)->dtype, (*b)->dtype);
    if (!dt)
      return dt.takeError();
    dtype = *dt;
  }
  auto vdevice = mergeVDevice(call, (*a)->vdevice, (*b)->vdevice);
  if (!vdevice)
    return vdevice.takeError();

  int aNDim = (*a)->ndim, bNDim = (*b)->ndim;
  if (aNDim < 0 || bNDim < 0)
    return tensorSInfoNDim(-1, dtype, *vdevice);
  if (aNDim == 0 || bNDim == 0)
    return opError(call, "expects both inputs to have at least 1 dimension, but got " +
                             std::to_string(aNDim) + " and " + std::to_string(bNDim));
  bool prepended = aNDim == 1, appended = bNDim == 1;
  int outNDim = std::max(std::max(aNDim, 2), std::max(bNDim, 2)) - prepended - appended;
  const std::vector<PrimExpr> *aDims = (*a)->shapeValues();
  const std::vector<PrimExpr> *bDims = (*b)->shapeValues();
  if (!aDims || !bDims)
    return tensorSInfoNDim(outNDim, dtype, *vdevice);

  // A promoted 1-D operand has no batch dims.
  llvm::ArrayRef<PrimExpr> aBatch(*aDims), bBatch(*bDims);
  aBatch = aBatch.drop_back(prepended ? 1 : 2);
  bBatch = bBatch.drop_back(appended ? 1 : 2);
  auto batch = broadcastShapes(call, aBatch, bBatch);
  if (!batch)
    return batch.takeError();
  if (!*batch)
    return tensorSInfoNDim(outNDim, dtype, *vdevice);

  const PrimExpr &aK = aDims->back();
  const PrimExpr &bK = appended ? (*bDims)[0] : (*bDims)[bNDim - 2];
  if (proveNotEqual(aK, bK))
    return opError(call, "expects the reduction lengths of the two inputs to be equal, but got " +
                             dimString(aK) + " and " + dimString(bK));
  std::vector<PrimExpr> out = std::move(**batch);
  if (!prepended)
    out.push_back((*aDims)[aNDim - 2]);
  if (!appended)
    out.push_back(bDims->back());
  return tensorSInfo(std::move(out), dtype, *vdevice);
}

/// outer(x1, x2): Tensor((n, m)) of x1's dtype; as TVM, x2's dtype is not
/// checked and the result has no vdevice.
llvm::Expected<StructInfo> inferOuter(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto a = tensorArg(call, 0);
  if (!a)
    return a.takeError();
  auto b = tensorArg(call, 1);
  if (!b)
    return b.takeError();
  if ((*a)->ndim != 1 || (*b)->ndim != 1)
    return opError(call, "expects two 1-D tensors, but got ndim " + std::to_string((*a)->ndim) +
                             " and " + std::to_string((*b)->ndim));
  const std::vector<PrimExpr> *n = (*a)->shapeValues(), *m = (*b)->shapeValues();
  if (!n || !m)
    return tensorSInfoNDim(2, (*a)->dtype);
  return tensorSInfo({(*n)[0], (*m)[0]}, (*a)->dtype);
}

} // namespace

void graft::registerLinalgOps() {
  registerOp(makeOp(
      "matmul",
      {arg("x1"), arg("x2"), attr("out_dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
      inferMatmul, OpPattern::OutEWiseFusable));
  // Injective, not TVM's Broadcast (out[i, j] = x1[i] * x2[j]): the fused
  // program format has no outer product, so fuse-elementwise must not take it.
  registerOp(makeOp("outer", {arg("x1"), arg("x2")}, inferOuter, OpPattern::Injective));
}
