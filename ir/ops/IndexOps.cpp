//===- ir/ops/IndexOps.cpp - Indexing, slicing and scatter ops -------------===//
//
// strided_slice, take, index_tensor and index_put (integer indices as in
// TVM, plus graft's boolean masks, docs/text-format.md), scatter_elements and nonzero.
// Ops whose output size depends on device data (nonzero, bool-mask
// index_tensor) read it on the host, so they are not capturable in a CUDA
// graph.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

bool isIndexDType(DataType dt) { return dt.isVoid() || dt.isIntegral(); }

//===----------------------------------------------------------------------===//
// strided_slice
//===----------------------------------------------------------------------===//

/// The PrimExprs of a tuple-of-PrimValue argument; None when unknown.
llvm::Optional<std::vector<PrimExpr>> primTuple(const CallNode &call, unsigned i) {
  if (i >= call.args.size())
    return llvm::None;
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(call.args[i]->sinfo.get());
  if (!tuple)
    return llvm::None;
  std::vector<PrimExpr> out;
  for (const StructInfo &f : tuple->fields) {
    const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(f.get());
    if (!p || !p->value)
      return llvm::None;
    out.push_back(p->value);
  }
  return out;
}

/// numpy slice length of [begin:end:stride] over a constant extent.
int64_t constSliceLength(int64_t begin, int64_t end, int64_t stride, int64_t extent) {
  auto canon = [&](int64_t idx) {
    if (idx < 0)
      idx += extent;
    int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
    return std::min(std::max(idx, lo), hi);
  };
  int64_t b = canon(begin), e = canon(end);
  // Written to avoid overflow for extreme strides (b and e lie in [-1, extent]).
  if (stride > 0)
    return e <= b ? 0 : (e - b - 1) / stride + 1;
  if (b <= e)
    return 0;
  uint64_t magnitude = 0 - static_cast<uint64_t>(stride); // -INT64_MIN does not fit.
  return static_cast<int64_t>(static_cast<uint64_t>(b - e - 1) / magnitude + 1);
}

/// Slice length with a symbolic part: constants are resolved against the
/// extent (negative -> from the end, huge -> the end); see docs/ops.md.
PrimExpr symbolicSliceLength(PrimExpr begin, PrimExpr end, int64_t stride, const PrimExpr &extent) {
  auto canon = [&](PrimExpr idx) {
    if (auto c = asConstInt(idx.get())) {
      if (*c < 0)
        return simplify(primBinary(PrimOp::Add, extent, idx));
      if (*c >= (int64_t(1) << 31))
        return extent;
    }
    return idx;
  };
  PrimExpr b = canon(std::move(begin)), e = canon(std::move(end));
  PrimExpr span = stride > 0 ? primBinary(PrimOp::Sub, e, b) : primBinary(PrimOp::Sub, b, e);
  int64_t s = stride > 0 ? stride : -stride;
  return simplify(primBinary(PrimOp::FloorDiv, primBinary(PrimOp::Add, span, i64(s - 1)), i64(s)));
}

llvm::Expected<StructInfo> inferStridedSlice(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 4, 5))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  for (unsigned i = 1; i < call.args.size(); ++i)
    if (!llvm::isa_and_nonnull<TupleSInfoNode>(call.args[i]->sinfo.get()))
      return opError(call, "expects " + argName(call, i) +
                               " to be a tuple of R.prim_value, "
                               "but got " +
                               sinfoKindName(call.args[i]->sinfo.get()));
  const TensorSInfoNode *d = *t;
  StructInfo fallback = tensorSInfoNDim(d->ndim, d->dtype, d->vdevice);
  auto axes = primTuple(call, 1), begin = primTuple(call, 2), end = primTuple(call, 3);
  llvm::Optional<std::vector<PrimExpr>> strides;
  if (call.args.size() == 5)
    strides = primTuple(call, 4);
  else if (axes)
    strides = std::vector<PrimExpr>(axes->size(), i64(1));
  if (axes && begin && end && strides &&
      (begin->size() != axes->size() || end->size() != axes->size() ||
       strides->size() != axes->size()))
    return opError(call, "expects axes, begin, end and strides of the same length");
  const std::vector<PrimExpr> *dims = d->shapeValues();
  if (!dims || !axes || !begin || !end || !strides)
    return fallback;
  auto assumeInbound = boolAttr(call, "assume_inbound");
  if (!assumeInbound)
    return assumeInbound.takeError();
  llvm::SmallVector<int64_t, 4> axisValues;
  for (const PrimExpr &a : *axes) {
    auto c = asConstInt(a.get());
    if (!c)
      return fallback;
    axisValues.push_back(*c);
  }
  auto normalized = normalizeAxes(call, axisValues, d->ndim);
  if (!normalized)
    return normalized.takeError();
  std::vector<PrimExpr> out = *dims;
  for (size_t i = 0; i < normalized->size(); ++i) {
    int axis = (*normalized)[i];
    auto stride = asConstInt((*strides)[i].get());
    if (!stride)
      return fallback;
    if (*stride == 0)
      return opError(call, "expects non-zero strides");
    auto b = asConstInt((*begin)[i].get()), e = asConstInt((*end)[i].get());
    auto extent = asConstInt((*dims)[axis].get());
    if (b && e && extent)
      out[axis] = i64(constSliceLength(*b, *e, *stride, *extent));
    else
      out[axis] = symbolicSliceLength((*begin)[i], (*end)[i], *stride, (*dims)[axis]);
  }
  return tensorSInfo(std::move(out), d->dtype, d->vdevice);
}

//===----------------------------------------------------------------------===//
// take
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferTake(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  // A PrimValue index acts as a 0-d tensor.
  StructInfo idxSInfo = call.args[1]->sinfo;
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(idxSInfo.get()))
    idxSInfo = tensorSInfo({}, p->dtype);
  const auto *idx = llvm::dyn_cast_or_null<TensorSInfoNode>(idxSInfo.get());
  if (!idx)
    return opError(call, "expects indices to be a R.Tensor or R.Prim, but got " +
                             sinfoKindName(idxSInfo.get()));
  if (!isIndexDType(idx->dtype))
    return opError(call, "expects integer indices, but got " + idx->dtype.str());
  auto axisAttr = optIntAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  if (!*axisAttr && d->ndim >= 0 && d->ndim != 1)
    return opError(call, "expects 1-D data when axis is not given, but got " +
                             std::to_string(d->ndim) + " dimensions");
  if (d->ndim < 0 || idx->ndim < 0)
    return tensorSInfoNDim(-1, d->dtype, d->vdevice);
  int axis = 0;
  if (*axisAttr) {
    auto n = normalizeAxis(call, **axisAttr, d->ndim);
    if (!n)
      return n.takeError();
    axis = *n;
  }
  const std::vector<PrimExpr> *dims = d->shapeValues(), *idxDims = idx->shapeValues();
  if (!dims || !idxDims)
    return tensorSInfoNDim(d->ndim + idx->ndim - 1, d->dtype, d->vdevice);
  std::vector<PrimExpr> out;
  for (int i = 0; i < d->ndim; ++i) {
    if (i == axis)
      out.insert(out.end(), idxDims->begin(), idxDims->end());
    else
      out.push_back((*dims)[i]);
  }
  return tensorSInfo(std::move(out), d->dtype, d->vdevice);
}

//===----------------------------------------------------------------------===//
// index_tensor, index_put
//===----------------------------------------------------------------------===//

/// A boolean mask must be the only index and match the data's leading dims
/// (only a provably different dim is an error). Returns the mask rank.
llvm::Expected<int> checkBoolMask(const CallNode &call, const TensorSInfoNode *data,
                                  llvm::ArrayRef<const TensorSInfoNode *> indices) {
  if (indices.size() != 1)
    return opError(call, "supports a boolean mask only as the sole index");
  const TensorSInfoNode *mask = indices[0];
  int k = mask->ndim;
  if (k >= 0 && data->ndim >= 0 && k > data->ndim)
    return opError(call, "expects a boolean mask of at most " + std::to_string(data->ndim) +
                             " dimensions, but got " + std::to_string(k));
  const std::vector<PrimExpr> *mDims = mask->shapeValues(), *dDims = data->shapeValues();
  if (mDims && dDims)
    for (int i = 0; i < k; ++i)
      if (proveNotEqual((*mDims)[i], (*dDims)[i]))
        return opError(call, "expects the mask shape " + shapeString(*mDims) +
                                 " to match the leading dims of the data shape " +
                                 shapeString(*dDims));
  return k;
}

bool hasBoolIndex(llvm::ArrayRef<const TensorSInfoNode *> indices) {
  for (const TensorSInfoNode *i : indices)
    if (i->dtype.isBool())
      return true;
  return false;
}

llvm::Error checkIntIndices(const CallNode &call, llvm::ArrayRef<const TensorSInfoNode *> indices) {
  for (size_t i = 0; i < indices.size(); ++i)
    if (!isIndexDType(indices[i]->dtype))
      return opError(call, "expects integer index tensors, but index " + std::to_string(i) +
                               " has dtype " + indices[i]->dtype.str());
  return llvm::Error::success();
}

llvm::Expected<StructInfo> inferIndexTensor(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto indices = tensorTupleArg(call, 1);
  if (!indices)
    return indices.takeError();
  const TensorSInfoNode *d = *data;
  if (indices->empty())
    return opError(call, "expects a non-empty tuple of index tensors");
  if (hasBoolIndex(*indices)) {
    auto k = checkBoolMask(call, d, *indices);
    if (!k)
      return k.takeError();
    int ndim = (*k < 0 || d->ndim < 0) ? -1 : d->ndim - *k + 1;
    return tensorSInfoNDim(ndim, d->dtype, d->vdevice);
  }
  if (auto err = checkIntIndices(call, *indices))
    return err;
  int n = static_cast<int>(indices->size());
  if (d->ndim >= 0 && n > d->ndim)
    return opError(call, "got " + std::to_string(n) + " index tensors for data of " +
                             std::to_string(d->ndim) + " dimensions");
  // Broadcast the index shapes together.
  llvm::Optional<std::vector<PrimExpr>> bcast = std::vector<PrimExpr>();
  int maxIdxNDim = 0;
  bool idxNDimKnown = true;
  for (const TensorSInfoNode *i : *indices) {
    idxNDimKnown &= i->ndim >= 0;
    maxIdxNDim = std::max(maxIdxNDim, i->ndim);
    const std::vector<PrimExpr> *dims = i->shapeValues();
    if (!dims || !bcast) {
      bcast = llvm::None;
      continue;
    }
    auto next = broadcastShapes(call, *bcast, *dims);
    if (!next)
      return next.takeError();
    bcast = std::move(*next);
  }
  int ndim = (d->ndim < 0 || !idxNDimKnown) ? -1 : maxIdxNDim + d->ndim - n;
  const std::vector<PrimExpr> *dims = d->shapeValues();
  if (!bcast || !dims)
    return tensorSInfoNDim(ndim, d->dtype, d->vdevice);
  std::vector<PrimExpr> out = std::move(*bcast);
  out.insert(out.end(), dims->begin() + n, dims->end());
  return tensorSInfo(std::move(out), d->dtype, d->vdevice);
}

/// A bool mask's true count, the output size, is read back on the host.
bool indexTensorReadsOnHost(const CallNode &call) {
  if (call.args.size() < 2)
    return false;
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(call.args[1]->sinfo.get());
  if (!tuple)
    return false;
  for (const StructInfo &f : tuple->fields)
    if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(f.get()))
      if (t->dtype.isBool())
        return true;
  return false;
}

llvm::Expected<StructInfo> inferIndexPut(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto indices = tensorTupleArg(call, 1);
  if (!indices)
    return indices.takeError();
  auto values = tensorArg(call, 2);
  if (!values)
    return values.takeError();
  const TensorSInfoNode *d = *data, *v = *values;
  if (!d->dtype.isVoid() && !v->dtype.isVoid() && v->dtype != d->dtype)
    return opError(call, "expects values of the data's dtype " + d->dtype.str() + ", but got " +
                             v->dtype.str());
  if (hasBoolIndex(*indices)) {
    auto k = checkBoolMask(call, d, *indices);
    if (!k)
      return k.takeError();
    if (*k >= 0 && d->ndim >= 0 && v->ndim >= 0 && v->ndim != d->ndim - *k + 1)
      return opError(call, "expects values of " + std::to_string(d->ndim - *k + 1) +
                               " dimensions for a mask of " + std::to_string(*k) + ", but got " +
                               std::to_string(v->ndim));
  } else {
    if (auto err = checkIntIndices(call, *indices))
      return err;
    if (d->ndim >= 0 && static_cast<int>(indices->size()) != d->ndim)
      return opError(call, "expects one index tensor per data dimension (" +
                               std::to_string(d->ndim) + "), but got " +
                               std::to_string(indices->size()));
    for (size_t i = 0; i < indices->size(); ++i)
      if ((*indices)[i]->ndim == 0)
        return opError(call, "expects index tensors of at least 1 dimension, but index " +
                                 std::to_string(i) + " is a scalar");
  }
  return StructInfo(d);
}

//===----------------------------------------------------------------------===//
// scatter_elements, nonzero
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferScatterElements(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  const TensorSInfoNode *in[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto t = tensorArg(call, i);
    if (!t)
      return t.takeError();
    in[i] = *t;
  }
  const TensorSInfoNode *d = in[0], *idx = in[1], *upd = in[2];
  if (!isIndexDType(idx->dtype))
    return opError(call, "expects integer indices, but got " + idx->dtype.str());
  if (!d->dtype.isVoid() && !upd->dtype.isVoid() && d->dtype != upd->dtype)
    return opError(call, "expects updates of the data's dtype " + d->dtype.str() + ", but got " +
                             upd->dtype.str());
  for (const TensorSInfoNode *t : {idx, upd})
    if (d->ndim >= 0 && t->ndim >= 0 && t->ndim != d->ndim)
      return opError(call, "expects indices and updates with the data's " +
                               std::to_string(d->ndim) + " dimensions, but got " +
                               std::to_string(t->ndim));
  const std::vector<PrimExpr> *iDims = idx->shapeValues(), *uDims = upd->shapeValues();
  if (iDims && uDims && iDims->size() == uDims->size())
    for (size_t k = 0; k < iDims->size(); ++k)
      if (proveNotEqual((*iDims)[k], (*uDims)[k]))
        return opError(call, "expects indices and updates of the same shape, but got " +
                                 shapeString(*iDims) + " and " + shapeString(*uDims));
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  if (d->ndim >= 0)
    if (auto n = normalizeAxis(call, *axis, d->ndim); !n)
      return n.takeError();
  return StructInfo(d);
}

llvm::Expected<StructInfo> inferNonzero(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return tensorSInfoNDim(2, DataType::int64(), (*t)->vdevice);
}

} // namespace

void graft::registerIndexOps() {
  registerOp(makeOp("strided_slice",
                    {arg("x"), arg("axes"), arg("begin"), arg("end"), optArg("strides"),
                     attr("assume_inbound", AttrKind::Bool, boolVal(false))},
                    inferStridedSlice, OpPattern::Injective));
  registerOp(makeOp("take",
                    {arg("x"), arg("indices"), attr("axis", AttrKind::OptionalInt, noneVal()),
                     attr("mode", AttrKind::String, strVal("fast"))},
                    inferTake, OpPattern::Injective));
  OpInfo indexTensor = makeOp("index_tensor", {arg("data"), arg("indices", ParamKind::ExprTuple)},
                              inferIndexTensor, OpPattern::Injective);
  indexTensor.readsOnHostCall = indexTensorReadsOnHost;
  registerOp(indexTensor);
  registerOp(makeOp("index_put",
                    {arg("data"), arg("indices", ParamKind::ExprTuple), arg("values"),
                     attr("accumulate", AttrKind::Bool, boolVal(false))},
                    inferIndexPut, OpPattern::Opaque));
  registerOp(
      makeOp("scatter_elements",
             {arg("data"), arg("indices"), arg("updates"), attr("axis", AttrKind::Int, intVal(0)),
              attr("reduction", AttrKind::String, strVal("update"))},
             inferScatterElements, OpPattern::Opaque));
  OpInfo nonzero = makeOp("nonzero", {arg("x")}, inferNonzero, OpPattern::Opaque);
  nonzero.readsOnHost = true; // The output size is read back from the device.
  nonzero.capturable = false;
  registerOp(nonzero);
}
