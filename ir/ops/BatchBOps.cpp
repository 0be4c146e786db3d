//===- ir/ops/BatchBOps.cpp - Gathers, scatters, padding, image ops --------===//
//
// gather_elements, gather_nd, scatter_nd, slice_scatter
// (src/relax/op/tensor/manipulate.cc), nn.pad and nn.pixel_shuffle
// (nn/nn.cc), median (statistical.cc), unique (set.cc), image.resize2d and
// image.grid_sample (image/resize.cc). Inference follows each op's
// FInferStructInfo in TVM v0.23, including what it leaves loose (nn.pad and
// nn.pixel_shuffle drop the vdevice; median with one axis returns a tuple of
// values and int64 indices); docs/ops.md lists the choices made where TVM
// would stop on an internal check instead.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The shape expr of a tensor as TVM's `shape.defined()` sees it: a
/// ShapeExpr or a shape var.
StructInfo tensorWithShapeOf(const TensorSInfoNode *shapeFrom, DataType dtype, VDevice vdevice) {
  return make<TensorSInfoNode>(shapeFrom->shape, dtype, shapeFrom->ndim, std::move(vdevice));
}

//===----------------------------------------------------------------------===//
// gather_elements, gather_nd
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferGatherElements(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto indices = tensorArg(call, 1);
  if (!indices)
    return indices.takeError();
  const TensorSInfoNode *d = *data, *idx = *indices;
  if (!idx->dtype.isVoid() && !idx->dtype.isInt())
    return opError(call, "expects signed integer indices, but got " + idx->dtype.str());
  if (d->ndim < 0 || idx->ndim < 0)
    return tensorSInfoNDim(-1, d->dtype, d->vdevice);
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  if (auto n = normalizeAxis(call, *axis, d->ndim); !n)
    return n.takeError();
  if (d->ndim != idx->ndim)
    return opError(call, "expects indices of the data's rank " + std::to_string(d->ndim) +
                             ", but got rank " + std::to_string(idx->ndim));
  if (idx->shape)
    return tensorWithShapeOf(idx, d->dtype, d->vdevice);
  return tensorSInfoNDim(idx->ndim, d->dtype, d->vdevice);
}

llvm::Expected<StructInfo> inferGatherND(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto indices = tensorArg(call, 1);
  if (!indices)
    return indices.takeError();
  const TensorSInfoNode *d = *data, *idx = *indices;
  auto batchDims = intAttr(call, "batch_dims");
  if (!batchDims)
    return batchDims.takeError();
  int64_t b = *batchDims;
  if (b < 0)
    return opError(call, "expects batch_dims >= 0, but got " + std::to_string(b));
  if (!idx->dtype.isVoid() && idx->dtype != DataType::int64())
    return opError(call, "expects int64 indices, but got " + idx->dtype.str());
  if (d->ndim < 0 || idx->ndim < 0)
    return tensorSInfoNDim(-1, d->dtype, d->vdevice);
  if (b > d->ndim)
    return opError(call, "expects batch_dims in [0, " + std::to_string(d->ndim) +
                             "] (the data's rank), but got " + std::to_string(b));
  if (b > idx->ndim - 1)
    return opError(call, "expects batch_dims at most the indices' rank - 1 (" +
                             std::to_string(idx->ndim - 1) + "), but got " + std::to_string(b));
  const std::vector<PrimExpr> *iDims = idx->shapeValues(), *dDims = d->shapeValues();
  llvm::Optional<int64_t> last =
      iDims && !iDims->empty() ? asConstInt(iDims->back().get()) : llvm::None;
  if (!last)
    return tensorSInfoNDim(-1, d->dtype, d->vdevice);
  int64_t outNDim = idx->ndim + d->ndim - *last - 1 - b;
  if (!dDims)
    return tensorSInfoNDim(static_cast<int>(outNDim), d->dtype, d->vdevice);
  if (*last > d->ndim - b)
    return opError(call, "expects the last dim of indices " + shapeString(*iDims) +
                             " to be at most the data's rank minus batch_dims (" +
                             std::to_string(d->ndim - b) + " for data " + shapeString(*dDims) +
                             ")");
  std::vector<PrimExpr> out(iDims->begin(), iDims->end() - 1);
  out.insert(out.end(), dDims->begin() + b + *last, dDims->end());
  return tensorSInfo(std::move(out), d->dtype, d->vdevice);
}

//===----------------------------------------------------------------------===//
// scatter_nd, slice_scatter
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferScatterND(const CallNode &call, const InferContext &) {
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
  if (d->dtype.isVoid() || upd->dtype.isVoid())
    return opError(call, "expects data and updates of known dtypes, but got " +
                             (d->dtype.isVoid() ? std::string("unknown") : d->dtype.str()) +
                             " and " +
                             (upd->dtype.isVoid() ? std::string("unknown") : upd->dtype.str()));
  if (d->dtype != upd->dtype)
    return opError(call, "expects updates of the data's dtype " + d->dtype.str() + ", but got " +
                             upd->dtype.str());
  if (!idx->dtype.isVoid() && !idx->dtype.isIntegral())
    return opError(call, "expects integer indices, but got " + idx->dtype.str());
  const std::vector<PrimExpr> *dDims = d->shapeValues(), *iDims = idx->shapeValues(),
                              *uDims = upd->shapeValues();
  if (dDims && iDims && uDims) {
    llvm::Optional<int64_t> k = iDims->empty() ? llvm::None : asConstInt(iDims->back().get());
    if (!k)
      return opError(call, "expects the last dim of indices " + shapeString(*iDims) +
                               " to be a constant");
    int64_t dn = static_cast<int64_t>(dDims->size()), in = static_cast<int64_t>(iDims->size());
    std::string shapes = "data " + shapeString(*dDims) + ", indices " + shapeString(*iDims) +
                         ", updates " + shapeString(*uDims);
    if (dn + in - *k - 1 != static_cast<int64_t>(uDims->size()))
      return opError(call, "expects updates of rank data.ndim + indices.ndim - indices.shape[-1] "
                           "- 1, but got " +
                               shapes);
    if (*k > dn)
      return opError(call,
                     "expects indices.shape[-1] to be at most the data's rank, but got " + shapes);
    std::vector<PrimExpr> want(iDims->begin(), iDims->end() - 1);
    want.insert(want.end(), dDims->begin() + *k, dDims->end());
    bool same = want.size() == uDims->size();
    for (size_t i = 0; same && i < want.size(); ++i)
      same = proveEqual(want[i], (*uDims)[i]);
    if (!same)
      return opError(call, "expects updates.shape = indices.shape[:-1] + data.shape[K:] " +
                               shapeString(want) + ", but got " + shapes);
  }
  if (dDims)
    return tensorSInfo(*dDims, d->dtype, d->vdevice);
  return tensorSInfoNDim(d->ndim, d->dtype, d->vdevice);
}

/// Whether a < b is provable: their difference simplifies to a negative
/// constant.
bool provablyLess(const PrimExpr &a, const PrimExpr &b) {
  llvm::Optional<int64_t> diff = asConstInt(simplify(primBinary(PrimOp::Sub, a, b)).get());
  return diff && *diff < 0;
}

/// slice_scatter's start/end/step: an integer R.prim_value written at the
/// call (TVM reads the PrimValue node itself, not its struct info).
llvm::Expected<PrimExpr> slicePrimArg(const CallNode &call, unsigned i) {
  const auto *pv = llvm::dyn_cast<PrimValueNode>(call.args[i].get());
  if (!pv)
    return opError(call, "expects " + argName(call, i) + " to be an R.prim_value, but got " +
                             sinfoKindName(call.args[i]->sinfo.get()));
  DataType dt = pv->value->dtype;
  if (!dt.isIntegral())
    return opError(call,
                   "expects " + argName(call, i) + " to be an integer, but got dtype " + dt.str());
  return pv->value;
}

llvm::Expected<StructInfo> inferSliceScatter(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 5))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto src = tensorArg(call, 1);
  if (!src)
    return src.takeError();
  const TensorSInfoNode *d = *data, *s = *src;
  if (d->ndim < 0)
    return tensorSInfoNDim(-1, d->dtype, d->vdevice);
  auto axisAttr = intAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  auto axis = normalizeAxis(call, *axisAttr, d->ndim);
  if (!axis)
    return axis.takeError();
  if (s->ndim >= 0 && s->ndim != d->ndim)
    return opError(call, "expects src of the data's rank " + std::to_string(d->ndim) +
                             ", but got rank " + std::to_string(s->ndim));
  if (!d->dtype.isVoid() && !s->dtype.isVoid() && d->dtype != s->dtype)
    return opError(call, "expects src of the data's dtype " + d->dtype.str() + ", but got " +
                             s->dtype.str());
  PrimExpr bounds[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto p = slicePrimArg(call, 2 + i);
    if (!p)
      return p.takeError();
    bounds[i] = *p;
  }
  const PrimExpr &start = bounds[0], &end = bounds[1], &step = bounds[2];
  if (provablyLess(step, i64(1)))
    return opError(call, "expects step >= 1, but got " + dimString(step));
  if (provablyLess(end, start))
    return opError(call, "expects start <= end, but got start " + dimString(start) + " and end " +
                             dimString(end));
  const std::vector<PrimExpr> *dDims = d->shapeValues(), *sDims = s->shapeValues();
  if (dDims && sDims && sDims->size() == dDims->size()) {
    for (int i = 0; i < d->ndim; ++i)
      if (i != *axis && proveNotEqual((*dDims)[i], (*sDims)[i]))
        return opError(call, "expects src of the data's shape outside axis " +
                                 std::to_string(*axis) + ", but got data " + shapeString(*dDims) +
                                 " and src " + shapeString(*sDims));
    PrimExpr span = primBinary(PrimOp::Sub, primBinary(PrimOp::Add, end, step), start);
    PrimExpr count =
        simplify(primBinary(PrimOp::FloorDiv, primBinary(PrimOp::Sub, span, i64(1)), step));
    if (proveNotEqual((*sDims)[*axis], count))
      return opError(call, "expects src to have the slice's " + dimString(count) +
                               " elements along axis " + std::to_string(*axis) + ", but got " +
                               dimString((*sDims)[*axis]));
  }
  if (d->shape)
    return tensorWithShapeOf(d, d->dtype, d->vdevice);
  return tensorSInfoNDim(d->ndim, d->dtype, d->vdevice);
}

//===----------------------------------------------------------------------===//
// nn.pad, nn.pixel_shuffle
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferPad(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  auto width = optIntListAttr(call, "pad_width");
  if (!width)
    return width.takeError();
  llvm::SmallVector<int64_t, 4> w = *width ? **width : llvm::SmallVector<int64_t, 4>();
  if (d->ndim < 0 || static_cast<int>(w.size()) != 2 * d->ndim)
    return opError(call,
                   "expects pad_width of 2 * ndim entries (" +
                       (d->ndim < 0 ? std::string("unknown ndim") : std::to_string(2 * d->ndim)) +
                       "), but got " + std::to_string(w.size()));
  // TVM's inference leaves the vdevice out.
  const std::vector<PrimExpr> *dims = knownDims(d);
  if (!dims)
    return tensorSInfoNDim(d->ndim, d->dtype);
  std::vector<PrimExpr> out;
  for (int i = 0; i < d->ndim; ++i)
    out.push_back(simplified(PrimOp::Add, (*dims)[i], i64(w[2 * i] + w[2 * i + 1])));
  return tensorSInfo(std::move(out), d->dtype);
}

llvm::Expected<StructInfo> inferPixelShuffle(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  auto factor = intAttr(call, "upscale_factor");
  if (!factor)
    return factor.takeError();
  int64_t r = *factor;
  if (r <= 0)
    return opError(call, "expects a positive upscale_factor, but got " + std::to_string(r));
  if (d->ndim < 3)
    return opError(call, "expects data of at least 3 dimensions, but got " +
                             (d->ndim < 0 ? std::string("unknown ndim") : std::to_string(d->ndim)));
  const std::vector<PrimExpr> *dims = knownDims(d);
  if (!dims)
    return tensorSInfoNDim(d->ndim, d->dtype);
  std::vector<PrimExpr> out = *dims;
  int c = d->ndim - 3;
  if (auto channels = asConstInt(out[c].get()); channels && *channels % (r * r) != 0)
    return opError(call, "expects channels divisible by upscale_factor^2 (" +
                             std::to_string(r * r) + "), but got " + std::to_string(*channels));
  out[c] = simplified(PrimOp::FloorDiv, out[c], i64(r * r));
  out[c + 1] = simplified(PrimOp::Mul, out[c + 1], i64(r));
  out[c + 2] = simplified(PrimOp::Mul, out[c + 2], i64(r));
  return tensorSInfo(std::move(out), d->dtype);
}

//===----------------------------------------------------------------------===//
// median, unique
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferMedian(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  auto axisList = optIntListAttr(call, "axis");
  auto keepdimsAttr = boolAttr(call, "keepdims");
  if (!axisList || !keepdimsAttr)
    return llvm::joinErrors(axisList.takeError(), keepdimsAttr.takeError());
  bool keepdims = *keepdimsAttr, hasAxis = axisList->hasValue();
  llvm::SmallVector<int, 4> axes;
  if (d->ndim >= 0 && hasAxis) {
    auto n = normalizeAxes(call, **axisList, d->ndim);
    if (!n)
      return n.takeError();
    axes = *n;
  }
  int outNDim = keepdims      ? d->ndim
                : !hasAxis    ? 0
                : d->ndim < 0 ? -1
                              : d->ndim - static_cast<int>(axes.size());
  const std::vector<PrimExpr> *dims = d->shapeValues();
  if (!dims) {
    if (!hasAxis && keepdims && outNDim >= 0)
      return tensorSInfo(std::vector<PrimExpr>(outNDim, i64(1)), d->dtype, d->vdevice);
    if (outNDim == 0)
      return tensorSInfo({}, d->dtype, d->vdevice);
    return tupleSInfo({tensorSInfoNDim(outNDim, d->dtype, d->vdevice),
                       tensorSInfoNDim(outNDim, DataType::int64(), d->vdevice)});
  }
  std::vector<PrimExpr> out;
  for (int i = 0; i < d->ndim; ++i) {
    if (hasAxis && !llvm::is_contained(axes, i))
      out.push_back((*dims)[i]);
    else if (keepdims)
      out.push_back(i64(1));
  }
  if (!hasAxis || axes.size() > 1)
    return tensorSInfo(std::move(out), d->dtype, d->vdevice);
  return tupleSInfo(
      {tensorSInfo(out, d->dtype, d->vdevice), tensorSInfo(out, DataType::int64(), d->vdevice)});
}

/// unique's return_* flag at argument i: an R.prim_value of a constant.
llvm::Expected<bool> uniqueFlag(const CallNode &call, unsigned i) {
  const auto *pv = llvm::dyn_cast<PrimValueNode>(call.args[i].get());
  llvm::Optional<int64_t> v = pv ? asConstInt(pv->value.get()) : llvm::None;
  if (!v)
    return opError(call, "expects " + argName(call, i) +
                             " to be an R.prim_value of a constant, but got " +
                             sinfoKindName(call.args[i]->sinfo.get()));
  return *v != 0;
}

llvm::Expected<StructInfo> inferUnique(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 5, 6))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  const TensorSInfoNode *d = *data;
  bool hasAxis = false;
  if (call.args.size() == 6)
    if (const auto *pv = llvm::dyn_cast<PrimValueNode>(call.args[5].get())) {
      hasAxis = true;
      if (auto a = asConstInt(pv->value.get()); a && d->ndim >= 0)
        if (auto n = normalizeAxis(call, *a, d->ndim); !n)
          return n.takeError();
    }
  bool flags[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto f = uniqueFlag(call, 2 + i);
    if (!f)
      return f.takeError();
    flags[i] = *f;
  }
  std::vector<StructInfo> out;
  if (d->ndim == 0)
    out.push_back(tensorSInfo({i64(1)}, d->dtype, d->vdevice));
  else
    out.push_back(tensorSInfoNDim(hasAxis ? d->ndim : 1, d->dtype, d->vdevice));
  // index, inverse and counts are 1-D whatever the axis.
  for (bool f : flags) {
    if (!f)
      continue;
    if (d->ndim == 0)
      out.push_back(tensorSInfo({i64(1)}, DataType::int64(), d->vdevice));
    else
      out.push_back(tensorSInfoNDim(1, DataType::int64(), d->vdevice));
  }
  if (out.size() == 1)
    return out[0];
  return tupleSInfo(std::move(out));
}

/// TVM's wrapper makes a Python bool flag `PrimValue(int64)`: True and
/// False written in text become R.prim_value(1) and R.prim_value(0).
llvm::Error canonicalizeUnique(std::vector<Expr> &args, Attrs &) {
  for (size_t i = 1; i < args.size() && i < 5; ++i)
    if (const auto *pv = llvm::dyn_cast<PrimValueNode>(args[i].get()))
      if (pv->value->dtype.isBool())
        if (auto v = asConstInt(pv->value.get()))
          args[i] = primValue(i64(*v != 0));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// image.resize2d, image.grid_sample
//===----------------------------------------------------------------------===//

/// The data's layout (a layout of NCHW) and its dims when known; errors on a
/// known rank the layout does not have.
llvm::Expected<std::pair<Layout, const std::vector<PrimExpr> *>>
imageLayout(const CallNode &call, const TensorSInfoNode *d) {
  auto name = stringAttr(call, "layout");
  if (!name)
    return name.takeError();
  auto l = parseLayout(call, *name, "NCHW", "layout");
  if (!l)
    return l.takeError();
  if (d->ndim >= 0 && d->ndim != l->ndim())
    return opError(call, "expects data of " + std::to_string(l->ndim()) +
                             " dimensions, as its layout says, but got " + std::to_string(d->ndim));
  return std::make_pair(std::move(*l), d->shapeValues());
}

/// Data's dims with the canonical H and W replaced, laid out back.
std::vector<PrimExpr> withSpatial(const Layout &l, llvm::ArrayRef<PrimExpr> dims, PrimExpr h,
                                  PrimExpr w) {
  std::vector<PrimExpr> nchw = toCanonical(l, dims, "NCHW");
  nchw[2] = std::move(h);
  nchw[3] = std::move(w);
  return fromCanonical(l, nchw, "NCHW");
}

llvm::Expected<StructInfo> inferResize2D(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto size = shapeArg(call, 1);
  if (!size)
    return size.takeError();
  if ((*size)->ndim != 2)
    return opError(call, "expects size to be a 2-dim shape, but got ndim " +
                             std::to_string((*size)->ndim));
  auto outDType = dtypeAttr(call, "out_dtype");
  if (!outDType)
    return outDType.takeError();
  const TensorSInfoNode *d = *data;
  auto layout = imageLayout(call, d);
  if (!layout)
    return layout.takeError();
  DataType dtype = outDType->isVoid() ? d->dtype : *outDType;
  const auto *sizeExpr = llvm::dyn_cast<ShapeExprNode>(call.args[1].get());
  if (!layout->second || !sizeExpr)
    return tensorSInfoNDim(layout->first.ndim(), dtype, d->vdevice);
  return tensorSInfo(
      withSpatial(layout->first, *layout->second, sizeExpr->values[0], sizeExpr->values[1]), dtype,
      d->vdevice);
}

llvm::Expected<StructInfo> inferGridSample(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto grid = tensorArg(call, 1);
  if (!grid)
    return grid.takeError();
  const TensorSInfoNode *d = *data;
  auto layout = imageLayout(call, d);
  if (!layout)
    return layout.takeError();
  const std::vector<PrimExpr> *g = (*grid)->shapeValues();
  if (!layout->second || !g)
    return tensorSInfoNDim(layout->first.ndim(), d->dtype, d->vdevice);
  if (g->size() != 4)
    return opError(call,
                   "expects a grid of shape (N, H_out, W_out, 2), but got " + shapeString(*g));
  return tensorSInfo(withSpatial(layout->first, *layout->second, (*g)[1], (*g)[2]), d->dtype,
                     d->vdevice);
}

/// resize2d's size: an int or a one-element list means a square (TVM's
/// wrapper).
llvm::Error canonicalizeResize2D(std::vector<Expr> &args, Attrs &) {
  if (args.size() < 2)
    return llvm::Error::success();
  if (const auto *pv = llvm::dyn_cast<PrimValueNode>(args[1].get()))
    args[1] = shapeExpr({pv->value, pv->value});
  else if (const auto *s = llvm::dyn_cast<ShapeExprNode>(args[1].get()); s && s->values.size() == 1)
    args[1] = shapeExpr({s->values[0], s->values[0]});
  return llvm::Error::success();
}

AttrValue zeroRoi() {
  AttrArray roi;
  for (int i = 0; i < 4; ++i)
    roi.push_back(AttrValue::prim(floatImm(0.0, DataType::float32())));
  return AttrValue::array(std::move(roi));
}

} // namespace

void graft::registerBatchBOps() {
  registerOp(makeOp("gather_elements",
                    {arg("data"), arg("indices"), attr("axis", AttrKind::Int, intVal(0))},
                    inferGatherElements, OpPattern::Injective));
  registerOp(makeOp("gather_nd",
                    {arg("data"), arg("indices"), attr("batch_dims", AttrKind::Int, intVal(0))},
                    inferGatherND, OpPattern::Injective));
  registerOp(makeOp("scatter_nd",
                    {arg("data"), arg("indices"), arg("updates"),
                     attr("reduction", AttrKind::String, strVal("update"))},
                    inferScatterND, OpPattern::Opaque));
  registerOp(makeOp("slice_scatter",
                    {arg("input_tensor"), arg("src"), arg("start", ParamKind::PrimValue),
                     arg("end", ParamKind::PrimValue), arg("step", ParamKind::PrimValue),
                     attr("axis", AttrKind::Int, intVal(0))},
                    inferSliceScatter, OpPattern::Injective));
  registerOp(makeOp("nn.pad",
                    {arg("data"), reqListAttr("pad_width", AttrKind::IntList),
                     attr("pad_mode", AttrKind::String, strVal("constant")),
                     attr("pad_value", AttrKind::Float, AttrValue::floating(0.0))},
                    inferPad, OpPattern::Injective));
  registerOp(makeOp("nn.pixel_shuffle", {arg("data"), reqAttr("upscale_factor", AttrKind::Int)},
                    inferPixelShuffle, OpPattern::Injective));
  registerOp(makeOp("median",
                    {arg("x"), listAttr("axis", AttrKind::OptionalIntList, noneVal()),
                     attr("keepdims", AttrKind::Bool, boolVal(false))},
                    inferMedian, OpPattern::Opaque));
  OpInfo unique = makeOp("unique",
                         {arg("x"), argOr("sorted", ParamKind::PrimValue, boolVal(true)),
                          argOr("return_index", ParamKind::PrimValue, boolVal(false)),
                          argOr("return_inverse", ParamKind::PrimValue, boolVal(false)),
                          argOr("return_counts", ParamKind::PrimValue, boolVal(false)),
                          optArg("axis", ParamKind::PrimValue)},
                         inferUnique, OpPattern::Opaque);
  unique.readsOnHost = true; // The number of unique values is read back from the device.
  unique.capturable = false;
  unique.canonicalize = canonicalizeUnique;
  registerOp(unique);
  OpInfo resize = makeOp(
      "image.resize2d",
      {arg("data"), arg("size", ParamKind::Shape), attr("roi", AttrKind::PrimList, zeroRoi()),
       attr("layout", AttrKind::String, strVal("NCHW")),
       attr("method", AttrKind::String, strVal("linear")),
       attr("coordinate_transformation_mode", AttrKind::String, strVal("half_pixel")),
       attr("rounding_method", AttrKind::String, strVal("round")),
       attr("cubic_alpha", AttrKind::Float, AttrValue::floating(-0.75)),
       attr("cubic_exclude", AttrKind::Int, intVal(0)),
       attr("extrapolation_value", AttrKind::Float, AttrValue::floating(0.0)),
       attr("out_dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
      inferResize2D, OpPattern::Injective);
  resize.canonicalize = canonicalizeResize2D;
  registerOp(resize);
  registerOp(makeOp("image.grid_sample",
                    {arg("data"), arg("grid"), attr("method", AttrKind::String, strVal("bilinear")),
                     attr("layout", AttrKind::String, strVal("NCHW")),
                     attr("padding_mode", AttrKind::String, strVal("zeros")),
                     attr("align_corners", AttrKind::Bool, boolVal(false))},
                    inferGridSample, OpPattern::Injective));
}
