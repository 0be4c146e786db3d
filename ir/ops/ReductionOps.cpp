//===- ir/ops/ReductionOps.cpp - Reductions, scans and sorting -------------===//
//
// Statistical reductions (sum, mean, max, min, prod, variance, std) share
// StatisticalAttrs(axis, keepdims) and one inference; argmax/argmin use
// ArgmaxArgminAttrs(axis, keepdims) with an int64 result; cumsum/cumprod use
// ScanopAttrs(axis, dtype, exclusive); sort/argsort keep the input shape;
// bucketize (a search, as TVM's search.cc) keeps it with an int64 or int32
// result.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The shape after reducing `axes` (None: all axes) of a tensor.
StructInfo reducedSInfo(const TensorSInfoNode *t, const llvm::SmallVector<int, 4> *axes,
                        bool keepdims, DataType dtype) {
  int ndim = t->ndim;
  int outNDim = keepdims ? ndim : !axes ? 0 : ndim < 0 ? -1 : ndim - static_cast<int>(axes->size());
  const std::vector<PrimExpr> *dims = t->shapeValues();
  if (!dims) {
    if (!axes && keepdims && outNDim >= 0)
      return tensorSInfo(std::vector<PrimExpr>(outNDim, i64(1)), dtype, t->vdevice);
    if (outNDim == 0)
      return tensorSInfo({}, dtype, t->vdevice);
    return tensorSInfoNDim(outNDim, dtype, t->vdevice);
  }
  std::vector<PrimExpr> out;
  for (int i = 0; i < ndim; ++i) {
    if (axes && !llvm::is_contained(*axes, i))
      out.push_back((*dims)[i]);
    else if (keepdims)
      out.push_back(i64(1));
  }
  return tensorSInfo(std::move(out), dtype, t->vdevice);
}

llvm::Expected<StructInfo> inferStatistical(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = optIntListAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  auto keepdims = boolAttr(call, "keepdims");
  if (!keepdims)
    return keepdims.takeError();
  llvm::SmallVector<int, 4> axes;
  if (*axis && (*t)->ndim >= 0) {
    auto n = normalizeAxes(call, **axis, (*t)->ndim);
    if (!n)
      return n.takeError();
    axes = *n;
  } else if (*axis) {
    axes.resize((*axis)->size()); // Only the count matters without ndim.
  }
  return reducedSInfo(*t, *axis ? &axes : nullptr, *keepdims, (*t)->dtype);
}

llvm::Expected<StructInfo> inferArgReduce(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = optIntAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  auto keepdims = boolAttr(call, "keepdims");
  if (!keepdims)
    return keepdims.takeError();
  llvm::SmallVector<int, 4> axes;
  if (*axis) {
    if ((*t)->ndim >= 0) {
      auto n = normalizeAxis(call, **axis, (*t)->ndim);
      if (!n)
        return n.takeError();
      axes.push_back(*n);
    } else {
      axes.push_back(0);
    }
  }
  return reducedSInfo(*t, *axis ? &axes : nullptr, *keepdims, DataType::int64());
}

/// cumsum/cumprod: same shape, or flattened when axis is None.
llvm::Expected<StructInfo> inferScan(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = optIntAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  DataType outDType = dtype->isVoid() ? (*t)->dtype : *dtype;
  if (*axis) {
    if ((*t)->ndim >= 0)
      if (auto n = normalizeAxis(call, **axis, (*t)->ndim); !n)
        return n.takeError();
    return withDType(*t, outDType);
  }
  if (const std::vector<PrimExpr> *dims = (*t)->shapeValues())
    return tensorSInfo({shapeProduct(*dims)}, outDType, (*t)->vdevice);
  return tensorSInfoNDim(1, outDType, (*t)->vdevice);
}

/// sort (dtype kept) and argsort (dtype attr, int32 by default).
template <bool IsArgsort>
llvm::Expected<StructInfo> inferSort(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
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
  if (!IsArgsort)
    return StructInfo(*t);
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return withDType(*t, dtype->isVoid() ? (*t)->dtype : *dtype);
}

llvm::Expected<StructInfo> inferSize(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  if (auto t = tensorArg(call, 0); !t)
    return t.takeError();
  return tensorSInfo({}, DataType::int64());
}

/// bucketize(input_tensor, boundaries): the input's shape (when a
/// ShapeExpr) and vdevice, int32 when out_int32 else int64; boundaries must
/// be 1-D.
llvm::Expected<StructInfo> inferBucketize(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto x = tensorArg(call, 0);
  if (!x)
    return x.takeError();
  auto bounds = tensorArg(call, 1);
  if (!bounds)
    return bounds.takeError();
  if ((*bounds)->ndim >= 0 && (*bounds)->ndim != 1)
    return opError(call, "expects 1-D boundaries, but got ndim " + std::to_string((*bounds)->ndim));
  auto out32 = boolAttr(call, "out_int32");
  if (!out32)
    return out32.takeError();
  DataType dtype = *out32 ? DataType::int32() : DataType::int64();
  if (const std::vector<PrimExpr> *dims = (*x)->shapeValues())
    return tensorSInfo(*dims, dtype, (*x)->vdevice);
  return tensorSInfoNDim((*x)->ndim, dtype, (*x)->vdevice);
}

} // namespace

void graft::registerReductionOps() {
  for (const char *name : {"sum", "mean", "max", "min", "prod", "variance", "std"})
    registerOp(makeOp(name,
                      {arg("x"), listAttr("axis", AttrKind::OptionalIntList, noneVal()),
                       attr("keepdims", AttrKind::Bool, boolVal(false))},
                      inferStatistical, OpPattern::CommReduce));
  for (const char *name : {"argmax", "argmin"})
    registerOp(makeOp(name,
                      {arg("x"), attr("axis", AttrKind::OptionalInt, noneVal()),
                       attr("keepdims", AttrKind::Bool, boolVal(false))},
                      inferArgReduce, OpPattern::CommReduce));
  for (const char *name : {"cumsum", "cumprod"})
    registerOp(makeOp(name,
                      {arg("data"), attr("axis", AttrKind::OptionalInt, noneVal()),
                       attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType())),
                       attr("exclusive", AttrKind::Bool, boolVal(false))},
                      inferScan, OpPattern::Opaque));
  registerOp(makeOp("sort",
                    {arg("x"), attr("axis", AttrKind::Int, intVal(-1)),
                     attr("descending", AttrKind::Bool, boolVal(false))},
                    inferSort<false>, OpPattern::Opaque));
  registerOp(makeOp("argsort",
                    {arg("data"), attr("axis", AttrKind::Int, intVal(-1)),
                     attr("descending", AttrKind::Bool, boolVal(false)),
                     attr("dtype", AttrKind::DType, dtypeVal(DataType::int32()))},
                    inferSort<true>, OpPattern::Opaque));
  registerOp(makeOp("size", {arg("x")}, inferSize, OpPattern::Injective));
  registerOp(makeOp("bucketize",
                    {arg("input_tensor"), arg("boundaries"),
                     attr("out_int32", AttrKind::Bool, boolVal(false)),
                     attr("right", AttrKind::Bool, boolVal(false))},
                    inferBucketize, OpPattern::Opaque));
}
