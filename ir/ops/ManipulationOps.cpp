//===- ir/ops/ManipulationOps.cpp - Shape manipulation ops -----------------===//
//
// permute_dims, reshape (with the constructor's -1/0 resolution as a
// canonicalize hook), broadcast_to, expand_dims, squeeze, flatten, concat,
// split, stack, meshgrid, collapse_sum_like/_to (broadcast's adjoint) and
// one_hot.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"

using namespace graft;
using namespace graft::opdef;

namespace {

bool isConst(const PrimExpr &e, int64_t v) {
  auto c = asConstInt(e.get());
  return c && *c == v;
}

//===----------------------------------------------------------------------===//
// permute_dims
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferPermuteDims(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axesAttr = optIntListAttr(call, "axes");
  if (!axesAttr)
    return axesAttr.takeError();
  int ndim = (*t)->ndim;
  if (*axesAttr) {
    int n = static_cast<int>((*axesAttr)->size());
    if (ndim >= 0 && n != ndim)
      return opError(call, "expects as many axes as the input has dimensions, but got " +
                               std::to_string(n) + " axes for " + std::to_string(ndim) +
                               " dimensions");
    ndim = n;
  } else if (ndim < 0) {
    return tensorSInfoNDim(-1, (*t)->dtype, (*t)->vdevice);
  }
  llvm::SmallVector<int, 4> axes;
  if (*axesAttr) {
    auto n = normalizeAxes(call, **axesAttr, ndim);
    if (!n)
      return n.takeError();
    axes = *n;
  } else {
    for (int i = ndim - 1; i >= 0; --i)
      axes.push_back(i);
  }
  bool identity = true;
  for (int i = 0; i < ndim; ++i)
    identity &= axes[i] == i;
  if (identity)
    return StructInfo(*t);
  const std::vector<PrimExpr> *dims = (*t)->shapeValues();
  if (!dims)
    return tensorSInfoNDim(ndim, (*t)->dtype, (*t)->vdevice);
  std::vector<PrimExpr> out;
  for (int a : axes)
    out.push_back((*dims)[a]);
  return tensorSInfo(std::move(out), (*t)->dtype, (*t)->vdevice);
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// old elements / known new elements. Identical factors cancel first: the
/// simplifier does not divide symbolic products (n*12 // n), TVM's does.
PrimExpr remainingDim(const std::vector<PrimExpr> &oldDims, const std::vector<PrimExpr> &newDims,
                      int inferDim) {
  std::vector<PrimExpr> num = oldDims, den;
  for (int i = 0; i < static_cast<int>(newDims.size()); ++i) {
    if (i == inferDim)
      continue;
    auto it = llvm::find_if(
        num, [&](const PrimExpr &d) { return primExprIdentical(d.get(), newDims[i].get()); });
    if (it != num.end())
      num.erase(it);
    else
      den.push_back(newDims[i]);
  }
  if (den.empty())
    return shapeProduct(num);
  return simplify(primBinary(PrimOp::FloorDiv, shapeProduct(num), shapeProduct(den)));
}

/// TVM's ConvertNewShapeToExpr: a 0 copies the input dim, one -1 takes the
/// remaining element count. Runs when the call is built.
llvm::Error canonicalizeReshape(std::vector<Expr> &args, Attrs &) {
  if (args.size() != 2)
    return llvm::Error::success();
  const auto *se = llvm::dyn_cast_or_null<ShapeExprNode>(args[1].get());
  if (!se)
    return llvm::Error::success();
  int inferDim = -1;
  llvm::SmallVector<int, 2> zeroDims;
  for (int i = 0; i < static_cast<int>(se->values.size()); ++i) {
    auto c = asConstInt(se->values[i].get());
    if (c && *c == 0) {
      zeroDims.push_back(i);
    } else if (c && *c == -1) {
      if (inferDim != -1)
        return diagError(args[1]->loc, "R.reshape accepts at most one -1 in the new shape");
      inferDim = i;
    } else if (c && *c < 0) {
      return diagError(args[1]->loc, "R.reshape expects positive dims in the new shape, "
                                     "except a single -1");
    }
  }
  if (inferDim == -1 && zeroDims.empty())
    return llvm::Error::success();
  const auto *t = args[0] ? llvm::dyn_cast_or_null<TensorSInfoNode>(args[0]->sinfo.get()) : nullptr;
  const std::vector<PrimExpr> *oldDims = t ? t->shapeValues() : nullptr;
  if (!oldDims && t && t->shape)
    if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(t->shape->sinfo.get()))
      oldDims = ss->values.getPointer();
  if (!oldDims)
    return diagError(args[1]->loc, "R.reshape needs the input's shape to resolve 0 or -1 in "
                                   "the new shape");
  std::vector<PrimExpr> dims = se->values;
  for (int i : zeroDims) {
    if (static_cast<size_t>(i) >= oldDims->size())
      return diagError(args[1]->loc, "R.reshape: a 0 in the new shape has no input dim to copy");
    dims[i] = (*oldDims)[i];
  }
  if (inferDim != -1)
    dims[inferDim] = remainingDim(*oldDims, dims, inferDim);
  args[1] = shapeExpr(std::move(dims));
  return llvm::Error::success();
}

llvm::Expected<StructInfo> inferReshape(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto shape = shapeArg(call, 1);
  if (!shape)
    return shape.takeError();
  const std::vector<PrimExpr> *oldDims = (*t)->shapeValues();
  if (!oldDims && (*t)->shape)
    if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>((*t)->shape->sinfo.get()))
      oldDims = ss->values.getPointer();
  if (oldDims && (*shape)->values) {
    PrimExpr oldProd = shapeProduct(*oldDims), newProd = shapeProduct(*(*shape)->values);
    if (proveNotEqual(oldProd, newProd))
      return opError(call, "expects the new shape to hold as many elements as the input, but " +
                               shapeString(*oldDims) + " has " + dimString(oldProd) + " and " +
                               shapeString(*(*shape)->values) + " has " + dimString(newProd));
  }
  const Expr &target = call.args[1];
  if (llvm::isa<VarNode>(target.get()) && (*shape)->values)
    return tensorSInfo(*(*shape)->values, (*t)->dtype, (*t)->vdevice);
  return make<TensorSInfoNode>(target, (*t)->dtype, (*shape)->ndim, (*t)->vdevice);
}

//===----------------------------------------------------------------------===//
// broadcast_to, expand_dims, squeeze, flatten
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferBroadcastTo(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto shape = shapeArg(call, 1);
  if (!shape)
    return shape.takeError();
  int ndim = (*t)->ndim, tgtNDim = (*shape)->ndim;
  if (ndim >= 0 && tgtNDim >= 0 && tgtNDim < ndim)
    return opError(call, "expects a target shape of at least " + std::to_string(ndim) +
                             " dimensions, but got " + std::to_string(tgtNDim));
  const std::vector<PrimExpr> *dims = (*t)->shapeValues();
  if (dims && (*shape)->values) {
    const std::vector<PrimExpr> &tgt = *(*shape)->values;
    for (int i = 1; i <= ndim; ++i) {
      const PrimExpr &d = (*dims)[ndim - i], &g = tgt[tgtNDim - i];
      if (isConst(d, 1) || proveEqual(d, g))
        continue;
      if (asConstInt(d.get()) && asConstInt(g.get()))
        return opError(call, "cannot broadcast " + shapeString(*dims) + " to " + shapeString(tgt) +
                                 ": dim " + dimString(d) + " vs " + dimString(g));
    }
  }
  return make<TensorSInfoNode>(call.args[1], (*t)->dtype, tgtNDim, (*t)->vdevice);
}

llvm::Expected<StructInfo> inferExpandDims(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axisAttr = optIntListAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  if ((*t)->ndim < 0)
    return tensorSInfoNDim(-1, (*t)->dtype, (*t)->vdevice);
  llvm::SmallVector<int64_t, 4> none;
  llvm::ArrayRef<int64_t> given = *axisAttr ? llvm::ArrayRef<int64_t>(**axisAttr) : none;
  int outNDim = (*t)->ndim + static_cast<int>(given.size());
  auto axes = normalizeAxes(call, given, outNDim);
  if (!axes)
    return axes.takeError();
  const std::vector<PrimExpr> *dims = (*t)->shapeValues();
  if (!dims)
    return tensorSInfoNDim(outNDim, (*t)->dtype, (*t)->vdevice);
  std::vector<PrimExpr> out;
  size_t next = 0;
  for (int i = 0; i < outNDim; ++i)
    out.push_back(llvm::is_contained(*axes, i) ? i64(1) : (*dims)[next++]);
  return tensorSInfo(std::move(out), (*t)->dtype, (*t)->vdevice);
}

llvm::Expected<StructInfo> inferSqueeze(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axisAttr = optIntListAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  int ndim = (*t)->ndim;
  DataType dtype = (*t)->dtype;
  VDevice vdevice = (*t)->vdevice;
  if (ndim < 0)
    return tensorSInfoNDim(-1, dtype, vdevice);
  const std::vector<PrimExpr> *dims = (*t)->shapeValues();
  llvm::SmallVector<bool, 8> remove(ndim, false);
  if (*axisAttr) {
    auto axes = normalizeAxes(call, **axisAttr, ndim);
    if (!axes)
      return axes.takeError();
    for (int a : *axes)
      remove[a] = true;
  } else if (dims) {
    for (int i = 0; i < ndim; ++i) {
      auto c = asConstInt((*dims)[i].get());
      if (!c) // A symbolic dim may or may not be 1.
        return tensorSInfoNDim(-1, dtype, vdevice);
      remove[i] = *c == 1;
    }
  } else {
    return tensorSInfoNDim(-1, dtype, vdevice);
  }
  if (!dims)
    return tensorSInfoNDim(ndim - static_cast<int>(llvm::count(remove, true)), dtype, vdevice);
  std::vector<PrimExpr> out;
  for (int i = 0; i < ndim; ++i) {
    auto c = asConstInt((*dims)[i].get());
    // v0.23: a listed axis whose static length is not 1 is kept.
    if (!remove[i] || (c && *c != 1))
      out.push_back((*dims)[i]);
  }
  return tensorSInfo(std::move(out), dtype, vdevice);
}

llvm::Expected<StructInfo> inferFlatten(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if ((*t)->ndim == 0)
    return tensorSInfo({i64(1)}, (*t)->dtype, (*t)->vdevice);
  if ((*t)->ndim == 1)
    return StructInfo(*t);
  if (const std::vector<PrimExpr> *dims = (*t)->shapeValues())
    return tensorSInfo({shapeProduct(*dims)}, (*t)->dtype, (*t)->vdevice);
  return tensorSInfoNDim(1, (*t)->dtype, (*t)->vdevice);
}

//===----------------------------------------------------------------------===//
// concat, split
//===----------------------------------------------------------------------===//

/// The concatenated dims of known shapes, or None when some non-axis dim
/// cannot be proven equal.
llvm::Expected<llvm::Optional<std::vector<PrimExpr>>>
concatDims(const CallNode &call, llvm::ArrayRef<const std::vector<PrimExpr> *> shapes, int axis) {
  using Result = llvm::Optional<std::vector<PrimExpr>>;
  const std::vector<PrimExpr> &first = *shapes[0];
  bool unknown = false;
  for (size_t d = 0; d < first.size(); ++d) {
    if (static_cast<int>(d) == axis)
      continue;
    for (const std::vector<PrimExpr> *s : shapes) {
      if (proveNotEqual((*s)[d], first[d]))
        return opError(call, "expects the inputs to agree on every dim but the axis, but dim " +
                                 std::to_string(d) + " is " + dimString(first[d]) + " and " +
                                 dimString((*s)[d]));
      unknown |= !proveEqual((*s)[d], first[d]);
    }
  }
  if (unknown)
    return Result();
  bool allSame = llvm::all_of(shapes, [&](const std::vector<PrimExpr> *s) {
    return primExprIdentical((*s)[axis].get(), first[axis].get());
  });
  PrimExpr sum;
  if (allSame) {
    sum = primBinary(PrimOp::Mul, first[axis], i64(static_cast<int64_t>(shapes.size())));
  } else {
    sum = i64(0);
    for (const std::vector<PrimExpr> *s : shapes)
      sum = primBinary(PrimOp::Add, sum, (*s)[axis]);
  }
  std::vector<PrimExpr> out = first;
  out[axis] = simplify(sum);
  return Result(std::move(out));
}

llvm::Expected<StructInfo> inferConcat(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto tensors = tensorTupleArg(call, 0);
  if (!tensors)
    return tensors.takeError();
  if (tensors->empty())
    return opError(call, "expects at least one tensor in the input tuple");
  DataType dtype;
  bool voidDType = false, shapeUnknown = false;
  int ndim = -1;
  VDevice vdevice;
  llvm::SmallVector<const std::vector<PrimExpr> *, 4> shapes;
  for (const TensorSInfoNode *t : *tensors) {
    if (t->dtype.isVoid())
      voidDType = true;
    else if (dtype.isVoid())
      dtype = t->dtype;
    else if (t->dtype != dtype)
      return opError(call, "expects the inputs to have the same dtype, but got " + dtype.str() +
                               " and " + t->dtype.str());
    if (ndim < 0)
      ndim = t->ndim;
    else if (t->ndim >= 0 && t->ndim != ndim)
      return opError(call, "expects the inputs to have the same ndim, but got " +
                               std::to_string(ndim) + " and " + std::to_string(t->ndim));
    auto vd = mergeVDevice(call, vdevice, t->vdevice);
    if (!vd)
      return vd.takeError();
    vdevice = *vd;
    const std::vector<PrimExpr> *dims = t->shapeValues();
    if (!dims && t->shape)
      if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(t->shape->sinfo.get()))
        dims = ss->values.getPointer();
    shapeUnknown |= !t->shapeValues();
    if (dims)
      shapes.push_back(dims);
  }
  if (voidDType)
    dtype = DataType::voidType();
  if (ndim < 0)
    return tensors->size() == 1 ? StructInfo((*tensors)[0]) : tensorSInfoNDim(-1, dtype, vdevice);
  auto axisAttr = optIntAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  auto axis = normalizeAxis(call, axisAttr->getValueOr(0), ndim);
  if (!axis)
    return axis.takeError();
  if (tensors->size() == 1)
    return StructInfo((*tensors)[0]);
  if (shapes.empty())
    return tensorSInfoNDim(ndim, dtype, vdevice);
  auto dims = concatDims(call, shapes, *axis);
  if (!dims)
    return dims.takeError();
  if (shapeUnknown || !*dims)
    return tensorSInfoNDim(ndim, dtype, vdevice);
  return tensorSInfo(std::move(**dims), dtype, vdevice);
}

/// Bounds the tuple a bad attr could make us allocate.
constexpr int64_t kMaxSections = 1 << 16;

PrimExpr clampDim(const PrimExpr &v, const PrimExpr &len) {
  return primBinary(PrimOp::Min, primBinary(PrimOp::Max, v, i64(0)), len);
}

llvm::Expected<StructInfo> inferSplit(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axisAttr = intAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  int axis = -1;
  if ((*t)->ndim >= 0) {
    auto n = normalizeAxis(call, *axisAttr, (*t)->ndim);
    if (!n)
      return n.takeError();
    axis = *n;
  }
  const std::vector<PrimExpr> *dims = (*t)->shapeValues();
  StructInfo unknownPart = tensorSInfoNDim((*t)->ndim, (*t)->dtype, (*t)->vdevice);
  const AttrValue &spec = attrValue(call, "indices_or_sections");
  std::vector<StructInfo> parts;
  if (spec.kind() == AttrValue::Kind::Int) {
    int64_t n = spec.getInt();
    if (n <= 0 || n > kMaxSections)
      return opError(call, "expects a number of sections in [1, " + std::to_string(kMaxSections) +
                               "], but got " + std::to_string(n));
    if (!dims)
      return tupleSInfo(std::vector<StructInfo>(n, unknownPart));
    const PrimExpr &len = (*dims)[axis];
    PrimExpr each =
        simplify(primBinary(PrimOp::FloorDiv, primBinary(PrimOp::Add, len, i64(n - 1)), i64(n)));
    std::vector<PrimExpr> shape = *dims;
    shape[axis] = each;
    parts.assign(n - 1, tensorSInfo(shape, (*t)->dtype, (*t)->vdevice));
    shape[axis] = simplify(primBinary(PrimOp::Sub, len, primBinary(PrimOp::Mul, each, i64(n - 1))));
    parts.push_back(tensorSInfo(std::move(shape), (*t)->dtype, (*t)->vdevice));
    return tupleSInfo(std::move(parts));
  }
  auto indices = optIntListAttr(call, "indices_or_sections");
  if (!indices)
    return indices.takeError();
  if (!*indices)
    return opError(call, "expects indices_or_sections to be an int or a list of ints");
  if ((*indices)->empty())
    return tupleSInfo({StructInfo(*t)});
  if (static_cast<int64_t>((*indices)->size()) >= kMaxSections)
    return opError(call, "expects fewer than " + std::to_string(kMaxSections) + " split indices");
  if (!dims)
    return tupleSInfo(std::vector<StructInfo>((*indices)->size() + 1, unknownPart));
  const PrimExpr &len = (*dims)[axis];
  for (size_t i = 0; i <= (*indices)->size(); ++i) {
    PrimExpr l = clampDim(i64(i == 0 ? 0 : (**indices)[i - 1]), len);
    PrimExpr r = i == (*indices)->size() ? len : clampDim(i64((**indices)[i]), len);
    std::vector<PrimExpr> shape = *dims;
    shape[axis] = simplify(primBinary(PrimOp::Max, primBinary(PrimOp::Sub, r, l), i64(0)));
    parts.push_back(tensorSInfo(std::move(shape), (*t)->dtype, (*t)->vdevice));
  }
  return tupleSInfo(std::move(parts));
}

//===----------------------------------------------------------------------===//
// stack, meshgrid (tuple inputs), collapse_sum_like/_to, one_hot
//===----------------------------------------------------------------------===//

/// v0.23's vdevice rule of stack and meshgrid: the first one set, or none
/// when two set ones differ (no error, unlike the binary ops).
struct VDeviceUnion {
  VDevice vdevice;
  bool conflict = false;

  void add(const VDevice &v) {
    if (conflict || !v)
      return;
    if (!vdevice) {
      vdevice = v;
      return;
    }
    conflict = vdevice.get() != v.get() &&
               (vdevice->targetKind != v->targetKind || vdevice->vdeviceId != v->vdeviceId ||
                vdevice->memoryScope != v->memoryScope);
  }
  VDevice result() const { return conflict ? VDevice() : vdevice; }
};

/// The stacked shape: the inputs' dims (which must agree) with the count
/// inserted at `axis`; None when some dim is not provably equal.
llvm::Expected<llvm::Optional<std::vector<PrimExpr>>>
stackDims(const CallNode &call, llvm::ArrayRef<const std::vector<PrimExpr> *> shapes, int axis,
          size_t count) {
  const std::vector<PrimExpr> &first = *shapes[0];
  bool unknown = false;
  for (size_t d = 0; d < first.size(); ++d)
    for (size_t i = 1; i < shapes.size(); ++i) {
      const PrimExpr &other = (*shapes[i])[d];
      if (proveNotEqual(other, first[d]))
        return opError(call, "expects all input tensors to have identical shapes, but dimension " +
                                 std::to_string(d) + " differs: " + dimString(first[d]) + " vs " +
                                 dimString(other));
      unknown |= !proveEqual(other, first[d]);
    }
  if (unknown)
    return llvm::None;
  std::vector<PrimExpr> out(first.begin(), first.end());
  out.insert(out.begin() + axis, i64(int64_t(count)));
  return llvm::Optional<std::vector<PrimExpr>>(std::move(out));
}

llvm::Expected<StructInfo> inferStack(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto tensors = tensorTupleArg(call, 0);
  if (!tensors)
    return tensors.takeError();
  if (tensors->empty())
    return opError(call, "expects at least one tensor in the input tuple");
  // TVM takes the first tensor's ndim; graft takes the first known one, so
  // a leading tensor of unknown ndim does not make axis 0 out of range.
  int ndim = -1;
  for (const TensorSInfoNode *t : *tensors)
    if (ndim < 0)
      ndim = t->ndim;
  DataType dtype;
  bool voidDType = false, shapeUnknown = false;
  VDeviceUnion vdevice;
  llvm::SmallVector<const std::vector<PrimExpr> *, 4> shapes;
  for (const TensorSInfoNode *t : *tensors) {
    if (t->dtype.isVoid())
      voidDType = true;
    else if (dtype.isVoid())
      dtype = t->dtype;
    else if (t->dtype != dtype)
      return opError(call, "expects all input tensors to have the same dtype, but got " +
                               dtype.str() + " and " + t->dtype.str());
    if (t->ndim >= 0 && t->ndim != ndim)
      return opError(call, "expects all input tensors to have the same ndim, but got " +
                               std::to_string(ndim) + " and " + std::to_string(t->ndim));
    vdevice.add(t->vdevice);
    shapeUnknown |= !t->shapeValues();
    if (const std::vector<PrimExpr> *dims = knownDims(t))
      shapes.push_back(dims);
  }
  if (voidDType)
    dtype = DataType::voidType();
  if (ndim < 0)
    return tensorSInfoNDim(-1, dtype, vdevice.result());
  auto axisAttr = optIntAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  auto axis = normalizeAxis(call, axisAttr->getValueOr(0), ndim + 1);
  if (!axis)
    return axis.takeError();
  if (shapes.empty())
    return tensorSInfoNDim(ndim + 1, dtype, vdevice.result());
  // The dims that are known are checked even when another input's are not.
  auto dims = stackDims(call, shapes, *axis, tensors->size());
  if (!dims)
    return dims.takeError();
  if (!*dims || (tensors->size() > 1 && shapeUnknown))
    return tensorSInfoNDim(ndim + 1, dtype, vdevice.result());
  return tensorSInfo(std::move(**dims), dtype, vdevice.result());
}

/// meshgrid: one tensor per input, each of the lengths in input order (as
/// TVM infers it, whatever the indexing).
llvm::Expected<StructInfo> inferMeshgrid(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto tensors = tensorTupleArg(call, 0);
  if (!tensors)
    return tensors.takeError();
  if (tensors->empty())
    return opError(call, "expects at least one 1-D tensor in the input tuple");
  std::vector<PrimExpr> lengths;
  DataType dtype;
  VDeviceUnion vdevice;
  for (size_t i = 0; i < tensors->size(); ++i) {
    const TensorSInfoNode *t = (*tensors)[i];
    if (t->ndim != 1)
      return opError(call, "expects each input tensor to be 1-D, but input " + std::to_string(i) +
                               " has ndim " + std::to_string(t->ndim));
    // As TVM: an input of unknown dtype adds neither its length nor its
    // vdevice, so the grid's shape stays unknown.
    if (t->dtype.isVoid())
      continue;
    if (dtype.isVoid())
      dtype = t->dtype;
    else if (t->dtype != dtype)
      return opError(call, "expects all input tensors to have the same dtype, but got " +
                               t->dtype.str() + " and " + dtype.str());
    if (const std::vector<PrimExpr> *dims = t->shapeValues())
      lengths.push_back((*dims)[0]);
    vdevice.add(t->vdevice);
  }
  int n = int(tensors->size());
  bool known = lengths.size() == tensors->size();
  std::vector<StructInfo> fields;
  for (int i = 0; i < n; ++i)
    fields.push_back(known ? tensorSInfo(lengths, dtype, vdevice.result())
                           : tensorSInfoNDim(n, dtype, vdevice.result()));
  return tupleSInfo(std::move(fields));
}

/// TVM's CheckCollapseShape: from the right, each target dim equals the
/// data's or is 1 (the data's is then summed); leading data dims beyond
/// the target's are summed.
llvm::Error checkCollapseShape(const CallNode &call, llvm::ArrayRef<PrimExpr> data,
                               llvm::ArrayRef<PrimExpr> target) {
  int targetAx = int(target.size()) - 1;
  for (int dataAx = int(data.size()) - 1; dataAx >= 0 && targetAx >= 0; --dataAx) {
    const PrimExpr &d0 = data[dataAx], &d1 = target[targetAx];
    auto c0 = asConstInt(d0.get()), c1 = asConstInt(d1.get());
    if (proveEqual(d0, d1) || (c1 && *c1 == 1)) {
      --targetAx;
      continue;
    }
    if (c0 && c1)
      return opError(call, "cannot collapse data dim " + std::to_string(dataAx) + " (" +
                               dimString(d0) + ") into target dim " + std::to_string(targetAx) +
                               " (" + dimString(d1) +
                               "): a target dim must equal the data's or be 1");
    return opError(call, "cannot match data dim " + std::to_string(dataAx) + " (" + dimString(d0) +
                             ") with target dim " + std::to_string(targetAx) + " (" +
                             dimString(d1) + "): unknown or symbolic; consider R.match_cast first");
  }
  return llvm::Error::success();
}

llvm::Expected<StructInfo> inferCollapseSumLike(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto target = tensorArg(call, 1);
  if (!target)
    return target.takeError();
  const std::vector<PrimExpr> *d = knownDims(*data), *t = knownDims(*target);
  if (d && t)
    if (auto err = checkCollapseShape(call, *d, *t))
      return err;
  return make<TensorSInfoNode>((*target)->shape, (*data)->dtype, (*target)->ndim,
                               (*target)->vdevice);
}

llvm::Expected<StructInfo> inferCollapseSumTo(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto shape = shapeArg(call, 1);
  if (!shape)
    return shape.takeError();
  const std::vector<PrimExpr> *d = knownDims(*data);
  if (d && (*shape)->values)
    if (auto err = checkCollapseShape(call, *d, *(*shape)->values))
      return err;
  return make<TensorSInfoNode>(call.args[1], (*data)->dtype, (*shape)->ndim, (*data)->vdevice);
}

/// The dtype of one_hot's on/off value: a PrimValue, or (after
/// compute-prim-value moved a float into a host function) any R.Prim.
llvm::Expected<DataType> primValueDType(const CallNode &call, unsigned i) {
  if (const auto *pv = llvm::dyn_cast_or_null<PrimValueNode>(call.args[i].get()))
    return pv->value->dtype;
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(call.args[i]->sinfo.get()))
    return p->dtype;
  return opError(call, "expects " + argName(call, i) + " to be a R.prim_value");
}

llvm::Expected<StructInfo> inferOneHot(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  auto indices = tensorArg(call, 0);
  if (!indices)
    return indices.takeError();
  auto on = primValueDType(call, 1);
  if (!on)
    return on.takeError();
  auto off = primValueDType(call, 2);
  if (!off)
    return off.takeError();
  if (*on != *off)
    return opError(call, "expects on_value and off_value to have the same dtype, but got " +
                             on->str() + " and " + off->str());
  auto depth = intAttr(call, "depth");
  if (!depth)
    return depth.takeError();
  if (*depth <= 0) // TVM checks it in the op's constructor.
    return opError(call, "expects a positive depth, but got " + std::to_string(*depth));
  auto axisAttr = intAttr(call, "axis");
  if (!axisAttr)
    return axisAttr.takeError();
  const TensorSInfoNode *t = *indices;
  if (!t->dtype.isVoid() && !t->dtype.isIntegral())
    return opError(call, "expects integer indices, but got " + t->dtype.str());
  if (t->ndim < 0)
    return tensorSInfoNDim(-1, *on, t->vdevice);
  const std::vector<PrimExpr> *dims = t->shapeValues();
  if (!dims)
    return tensorSInfoNDim(t->ndim + 1, *on, t->vdevice);
  int64_t axis = *axisAttr < 0 ? *axisAttr + t->ndim + 1 : *axisAttr;
  if (axis < 0 || axis > t->ndim)
    return opError(call, "expects axis in [0, " + std::to_string(t->ndim) + "], but got " +
                             std::to_string(*axisAttr));
  std::vector<PrimExpr> out(dims->begin(), dims->end());
  out.insert(out.begin() + axis, i64(*depth));
  return tensorSInfo(std::move(out), *on, t->vdevice);
}

} // namespace

void graft::registerManipulationOps() {
  registerOp(makeOp("permute_dims", {arg("x"), attr("axes", AttrKind::OptionalIntList, noneVal())},
                    inferPermuteDims, OpPattern::Injective));
  OpInfo reshape = makeOp("reshape", {arg("x"), arg("shape", ParamKind::Shape)}, inferReshape,
                          OpPattern::Injective);
  reshape.canonicalize = canonicalizeReshape;
  // The VM reshapes in place (vm.builtin.reshape): a view, no kernel.
  reshape.aliasesInput = true;
  reshape.launchesKernel = false;
  registerOp(reshape);
  registerOp(makeOp("broadcast_to", {arg("x"), arg("shape", ParamKind::Shape)}, inferBroadcastTo,
                    OpPattern::Broadcast));
  registerOp(makeOp("expand_dims", {arg("x"), reqListAttr("axis", AttrKind::IntList)},
                    inferExpandDims, OpPattern::Broadcast));
  registerOp(makeOp("squeeze", {arg("x"), listAttr("axis", AttrKind::OptionalIntList, noneVal())},
                    inferSqueeze, OpPattern::Injective));
  registerOp(makeOp("flatten", {arg("x")}, inferFlatten, OpPattern::Injective));
  registerOp(
      makeOp("concat",
             {arg("tensors", ParamKind::ExprTuple), attr("axis", AttrKind::OptionalInt, intVal(0))},
             inferConcat, OpPattern::Injective));
  registerOp(makeOp("split",
                    {arg("x"), reqAttr("indices_or_sections", AttrKind::Any),
                     attr("axis", AttrKind::Int, intVal(0))},
                    inferSplit, OpPattern::Injective));
  registerOp(
      makeOp("stack",
             {arg("tensors", ParamKind::ExprTuple), attr("axis", AttrKind::OptionalInt, intVal(0))},
             inferStack, OpPattern::Injective));
  registerOp(makeOp(
      "meshgrid",
      {arg("tensors", ParamKind::ExprTuple), attr("indexing", AttrKind::String, strVal("ij"))},
      inferMeshgrid, OpPattern::Injective));
  registerOp(makeOp("collapse_sum_like", {arg("data"), arg("collapse_target")},
                    inferCollapseSumLike, OpPattern::CommReduce));
  registerOp(makeOp("collapse_sum_to", {arg("data"), arg("shape", ParamKind::Shape)},
                    inferCollapseSumTo, OpPattern::CommReduce));
  registerOp(makeOp("one_hot",
                    {arg("indices"), arg("on_value", ParamKind::PrimValue),
                     arg("off_value", ParamKind::PrimValue), reqAttr("depth", AttrKind::Int),
                     attr("axis", AttrKind::Int, intVal(-1))},
                    inferOneHot, OpPattern::Injective));
}
