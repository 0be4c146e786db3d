//===- ir/ops/InspectOps.cpp - Reading a DLTensor's fields ------------------===//
//
// TVM's relax.inspect.* ops (src/relax/op/tensor/inspect.cc): the runtime
// value of one field of a tensor's DLTensor, as an R.Prim. TVMScript writes
// them as attributes of a tensor: `A.dtype.type_code`, `A.dtype.bits`,
// `A.dtype.lanes`, `A.ndim`, `A.shape[i]`, `A.strides[i]`, `A.byte_offset`,
// `A.elem_offset`; they print as `R.inspect.tensor_dtype_code(A)`, ...
//
// Each infers the field's value when the struct info knows it (a known
// dtype, ndim, shape; compact strides and a zero offset for a tensor of
// known shape, which Relax implies), and normalizes to that R.prim_value
// then, as TVM's FNormalize does. What stays is read at run time from the
// tensor's metadata (lower-runtime-builtin makes it a VM builtin call).
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The DLPack dtype code TVM reports: bool is kDLBool (6) with 8 bits,
/// although graft (as TVM's text) spells it uint1.
int64_t dlpackCode(DataType dt) { return dt.isBool() ? 6 : dt.code; }
int64_t dlpackBits(DataType dt) { return dt.isBool() ? 8 : dt.bits; }

StructInfo known(DataType dtype, int64_t value) {
  return make<PrimSInfoNode>(dtype, intImm(value, dtype));
}

llvm::Expected<const TensorSInfoNode *> soleTensor(const CallNode &call) {
  if (auto err = checkArity(call, 1))
    return err;
  return tensorArg(call, 0);
}

/// The tensor and the axis of shape_i / stride_i; the axis a constant when
/// it is one (checked against the ndim as TVM checks it).
llvm::Expected<std::pair<const TensorSInfoNode *, llvm::Optional<int64_t>>>
tensorAndAxis(const CallNode &call) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  const auto *axis = llvm::dyn_cast_or_null<PrimSInfoNode>(call.args[1]->sinfo.get());
  if (!axis)
    return opError(call, "expects arguments (tensor, axis), but the axis has struct info " +
                             std::string(sinfoKindName(call.args[1]->sinfo.get())));
  llvm::Optional<int64_t> ax = axis->value ? asConstInt(axis->value.get()) : llvm::None;
  if (ax && *ax < 0)
    return opError(call, "expects a non-negative axis, but got " + std::to_string(*ax));
  if (ax && (*t)->ndim >= 0 && *ax >= (*t)->ndim)
    return opError(call, "reads shape[" + std::to_string(*ax) + "] of a tensor with only " +
                             std::to_string((*t)->ndim) + " dimensions");
  return std::make_pair(*t, ax);
}

/// A field of the tensor's dtype as a `result` scalar: known when the dtype
/// is, as TVM's inference folds it.
llvm::Expected<StructInfo> inferDTypeField(const CallNode &call, DataType result,
                                           int64_t (*field)(DataType)) {
  auto t = soleTensor(call);
  if (!t)
    return t.takeError();
  return (*t)->dtype.isVoid() ? primSInfo(result) : known(result, field((*t)->dtype));
}

llvm::Expected<StructInfo> inferDTypeCode(const CallNode &call, const InferContext &) {
  return inferDTypeField(call, DataType(DataType::UInt, 8), dlpackCode);
}

llvm::Expected<StructInfo> inferDTypeBits(const CallNode &call, const InferContext &) {
  return inferDTypeField(call, DataType(DataType::UInt, 8), dlpackBits);
}

llvm::Expected<StructInfo> inferDTypeLanes(const CallNode &call, const InferContext &) {
  return inferDTypeField(call, DataType(DataType::UInt, 16),
                         [](DataType dt) -> int64_t { return dt.lanes; });
}

llvm::Expected<StructInfo> inferNDim(const CallNode &call, const InferContext &) {
  auto t = soleTensor(call);
  if (!t)
    return t.takeError();
  return (*t)->ndim < 0 ? primSInfo(DataType::int32()) : known(DataType::int32(), (*t)->ndim);
}

llvm::Expected<StructInfo> inferShapeI(const CallNode &call, const InferContext &) {
  auto ta = tensorAndAxis(call);
  if (!ta)
    return ta.takeError();
  const std::vector<PrimExpr> *dims = knownDims(ta->first);
  if (!ta->second || !dims)
    return primSInfo(DataType::int64());
  const PrimExpr &dim = (*dims)[*ta->second];
  return StructInfo(make<PrimSInfoNode>(dim->dtype, dim));
}

/// `a * b` with TVM's constant folding (both constants, or a factor of 1).
PrimExpr mulFolded(const PrimExpr &a, const PrimExpr &b) {
  llvm::Optional<int64_t> ca = asConstInt(a.get()), cb = asConstInt(b.get());
  if (ca && cb)
    return intImm(*ca * *cb, a->dtype);
  if (ca && *ca == 1)
    return b;
  if (cb && *cb == 1)
    return a;
  return primBinary(PrimOp::Mul, a, b);
}

llvm::Expected<StructInfo> inferStrideI(const CallNode &call, const InferContext &) {
  auto ta = tensorAndAxis(call);
  if (!ta)
    return ta.takeError();
  const std::vector<PrimExpr> *dims = knownDims(ta->first);
  if (!ta->second || !dims)
    return primSInfo(DataType::int64());
  // A tensor of known shape is compact in Relax: the product of the later dims.
  PrimExpr stride = intImm(1);
  for (size_t k = static_cast<size_t>(*ta->second) + 1; k < dims->size(); ++k)
    stride = mulFolded(stride, (*dims)[k]);
  return StructInfo(make<PrimSInfoNode>(stride->dtype, stride));
}

/// byte_offset and elem_offset: zero for a tensor of known shape (compact, as
/// for strides), else unknown.
llvm::Expected<StructInfo> inferOffset(const CallNode &call, const InferContext &) {
  auto t = soleTensor(call);
  if (!t)
    return t.takeError();
  DataType u64(DataType::UInt, 64);
  return knownDims(*t) ? known(u64, 0) : primSInfo(u64);
}

/// TVM's NormalizeToKnownPrimValue: a call whose value inference knows is
/// that R.prim_value.
Expr normalizeToKnownValue(const CallNode &call) {
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(call.sinfo.get()))
    if (p->value)
      return primValue(p->value);
  return Expr(&call);
}

void registerInspect(llvm::StringRef name, std::vector<OpParam> params, InferFn infer) {
  OpInfo op = makeOp(name, std::move(params), infer, OpPattern::Opaque);
  op.normalize = normalizeToKnownValue;
  op.launchesKernel = false; // Reads metadata the host holds; no device work.
  registerOp(std::move(op));
}

} // namespace

void graft::registerInspectOps() {
  registerInspect("inspect.tensor_dtype_code", {arg("tensor")}, inferDTypeCode);
  registerInspect("inspect.tensor_dtype_bits", {arg("tensor")}, inferDTypeBits);
  registerInspect("inspect.tensor_dtype_lanes", {arg("tensor")}, inferDTypeLanes);
  registerInspect("inspect.tensor_ndim", {arg("tensor")}, inferNDim);
  registerInspect("inspect.tensor_shape_i", {arg("tensor"), arg("axis")}, inferShapeI);
  registerInspect("inspect.tensor_stride_i", {arg("tensor"), arg("axis")}, inferStrideI);
  registerInspect("inspect.tensor_byte_offset", {arg("tensor")}, inferOffset);
  registerInspect("inspect.tensor_elem_offset", {arg("tensor")}, inferOffset);
}
