//===- ir/ops/CreationOps.cpp - Tensor creation ops ------------------------===//
//
// zeros/ones/full take a shape and InitAttrs(dtype); the *_like forms take
// a tensor; arange takes start/end/step PrimValues (the wrapper's end=None
// swap and dtype choice run as a canonicalize hook); tril/triu take the
// diagonal offset k as a PrimValue argument. eye/eye_like take it too (eye's
// m defaults to n, another canonicalize hook); hamming_window takes its
// size, periodic flag and coefficients as PrimValues.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The result of a shape-taking creation op: Tensor(shape arg, dtype).
llvm::Expected<StructInfo> tensorOfShapeArg(const CallNode &call, DataType dtype) {
  auto shape = shapeArg(call, 0);
  if (!shape)
    return shape.takeError();
  return make<TensorSInfoNode>(call.args[0], dtype, (*shape)->ndim);
}

llvm::Expected<StructInfo> inferZerosOnes(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return tensorOfShapeArg(call, *dtype);
}

/// The fill value of full/full_like must be a scalar tensor.
llvm::Expected<DataType> fillDType(const CallNode &call, unsigned i) {
  auto fill = tensorArg(call, i);
  if (!fill)
    return fill.takeError();
  if ((*fill)->ndim != -1 && (*fill)->ndim != 0)
    return opError(call, "expects fill_value to be a scalar tensor, but it has " +
                             std::to_string((*fill)->ndim) + " dimensions");
  return (*fill)->dtype;
}

llvm::Expected<StructInfo> inferFull(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto fill = fillDType(call, 1);
  if (!fill)
    return fill.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return tensorOfShapeArg(call, dtype->isVoid() ? *fill : *dtype);
}

/// zeros_like, ones_like (1 arg) and full_like (2 args).
llvm::Expected<StructInfo> inferLike(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if (call.args.size() == 2)
    if (auto fill = fillDType(call, 1); !fill)
      return fill.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return withDType(*t, dtype->isVoid() ? (*t)->dtype : *dtype);
}

const PrimValueNode *asPrimValue(const Expr &e) {
  return llvm::dyn_cast_or_null<PrimValueNode>(e.get());
}

/// The wrapper's `arange(end)` form and its dtype choice (int64 when every
/// bound is an integer, else float32).
llvm::Error canonicalizeArange(std::vector<Expr> &args, Attrs &attrs) {
  if (args.size() == 2) // end omitted: the single bound is the end.
    args = {primValueInt(0), args[0], args[1]};
  const AttrValue *dt = attrs ? attrs->lookup("dtype") : nullptr;
  if (dt && !(dt->kind() == AttrValue::Kind::DType && dt->getDType().isVoid()) && !dt->isNone())
    return llvm::Error::success();
  bool allInt = true;
  for (const Expr &a : args) {
    const PrimValueNode *pv = asPrimValue(a);
    allInt &= pv && (pv->value->dtype.isInt() || pv->value->dtype.isUInt());
  }
  attrs = withAttr(attrs.get(), "dtype",
                   AttrValue::dtype(allInt ? DataType::int64() : DataType::float32()));
  return llvm::Error::success();
}

llvm::Expected<StructInfo> inferArange(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  PrimExpr v[3];
  for (unsigned i = 0; i < 3; ++i) {
    const PrimValueNode *pv = asPrimValue(call.args[i]);
    if (!pv)
      return opError(call, "expects " + argName(call, i) + " to be a R.prim_value");
    v[i] = pv->value;
  }
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  if (auto step = asConstInt(v[2].get()); step && *step == 0)
    return opError(call, "expects a non-zero step");
  bool allInt = v[0]->dtype.isInt() && v[1]->dtype.isInt() && v[2]->dtype.isInt();
  if (!allInt)
    return tensorSInfoNDim(1, *dtype); // graft keeps no float ceil in shapes.
  // floordiv(end - start + step - 1, step), as TVM computes it.
  PrimExpr span = primBinary(PrimOp::Sub, v[1], v[0]);
  PrimExpr num = primBinary(
      PrimOp::FloorDiv, primBinary(PrimOp::Sub, primBinary(PrimOp::Add, span, v[2]), i64(1)), v[2]);
  return tensorSInfo({simplify(num)}, *dtype);
}

llvm::Expected<StructInfo> inferTrilu(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if ((*t)->ndim >= 0 && (*t)->ndim < 2)
    return opError(call, "expects a tensor of at least 2 dimensions, but got " +
                             std::to_string((*t)->ndim));
  return StructInfo(*t);
}

/// The wrapper's `m = n if m is None`.
llvm::Error canonicalizeEye(std::vector<Expr> &args, Attrs &) {
  if (args.size() == 2) // m omitted: a square matrix.
    args = {args[0], args[0], args[1]};
  return llvm::Error::success();
}

/// The PrimValue argument `i` (eye's n and m, hamming_window's size), or
/// an R.Prim whose value its struct info knows (compute-prim-value binds
/// a symbolic expression to a host function's result).
llvm::Expected<PrimExpr> primValueArg(const CallNode &call, unsigned i) {
  if (const PrimValueNode *pv = asPrimValue(call.args[i]))
    return pv->value;
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(call.args[i]->sinfo.get()))
    if (p->value)
      return p->value;
  return opError(call, "expects " + argName(call, i) + " to be a R.prim_value");
}

/// eye(n, m, k): a Tensor((n, m), dtype), the dims as written.
llvm::Expected<StructInfo> inferEye(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  auto n = primValueArg(call, 0);
  if (!n)
    return n.takeError();
  auto m = primValueArg(call, 1);
  if (!m)
    return m.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return tensorSInfo({*n, *m}, *dtype);
}

/// eye_like(x, k): x's shape and vdevice, the dtype attr or x's.
llvm::Expected<StructInfo> inferEyeLike(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if ((*t)->ndim >= 0 && (*t)->ndim != 2)
    return opError(call,
                   "expects a 2-D tensor, but got " + std::to_string((*t)->ndim) + " dimensions");
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return withDType(*t, dtype->isVoid() ? (*t)->dtype : *dtype);
}

/// hamming_window(window_size, periodic, alpha, beta): a float
/// Tensor((window_size,)); a size provably below 1 is an error.
llvm::Expected<StructInfo> inferHammingWindow(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 4))
    return err;
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  // TVM rejects int and uint dtypes (bool is uint1 there).
  if (dtype->isIntegral() || dtype->isBool())
    return opError(call, "expects a float dtype, but got " + dtype->str());
  auto size = primValueArg(call, 0);
  if (!size)
    return size.takeError();
  if (auto v = asConstInt(size->get()); v && *v < 1)
    return opError(call, "expects window_size to be positive, but got " + std::to_string(*v));
  return tensorSInfo({simplify(*size)}, *dtype);
}

} // namespace

void graft::registerCreationOps() {
  for (const char *name : {"zeros", "ones"})
    registerOp(makeOp(name, {arg("shape", ParamKind::Shape), reqAttr("dtype", AttrKind::DType)},
                      inferZerosOnes, OpPattern::ElemWise));
  registerOp(makeOp("full",
                    {arg("shape", ParamKind::Shape), arg("fill_value"),
                     attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
                    inferFull, OpPattern::ElemWise));
  for (const char *name : {"zeros_like", "ones_like"})
    registerOp(makeOp(name,
                      {arg("x"), attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
                      inferLike, OpPattern::ElemWise));
  registerOp(makeOp(
      "full_like",
      {arg("x"), arg("fill_value"), attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
      inferLike, OpPattern::ElemWise));
  OpInfo arange = makeOp("arange",
                         {arg("start", ParamKind::PrimValue), optArg("end", ParamKind::PrimValue),
                          argOr("step", ParamKind::PrimValue, intVal(1)),
                          attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
                         inferArange, OpPattern::Opaque);
  arange.canonicalize = canonicalizeArange;
  registerOp(arange);
  for (const char *name : {"tril", "triu"})
    registerOp(makeOp(name, {arg("x"), argOr("k", ParamKind::PrimValue, intVal(0))}, inferTrilu,
                      OpPattern::ElemWise));
  OpInfo eye = makeOp("eye",
                      {arg("n", ParamKind::PrimValue), optArg("m", ParamKind::PrimValue),
                       argOr("k", ParamKind::PrimValue, intVal(0)),
                       attr("dtype", AttrKind::DType, dtypeVal(DataType::float32()))},
                      inferEye, OpPattern::ElemWise);
  eye.canonicalize = canonicalizeEye;
  registerOp(eye);
  registerOp(makeOp("eye_like",
                    {arg("x"), argOr("k", ParamKind::PrimValue, intVal(0)),
                     attr("dtype", AttrKind::DType, dtypeVal(DataType::voidType()))},
                    inferEyeLike, OpPattern::ElemWise));
  registerOp(makeOp("hamming_window",
                    {arg("window_size", ParamKind::PrimValue),
                     arg("periodic", ParamKind::PrimValue), arg("alpha", ParamKind::PrimValue),
                     arg("beta", ParamKind::PrimValue), reqAttr("dtype", AttrKind::DType)},
                    inferHammingWindow, OpPattern::Opaque));
}
