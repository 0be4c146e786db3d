//===- ir/ops/ElementwiseOps.cpp - Unary, binary and ternary elementwise ---===//
//
// Tables of unary ops (dtype kept, optionally float-only, or bool result)
// and binary broadcast ops (arithmetic dtype rule or bool comparisons), plus
// clip, astype, where and ewise_fma.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

enum class UnaryKind : uint8_t { Any, FloatOnly, ToBool };

/// The v0.23 rule for a call that carries sinfo_args: the output vdevice
/// comes from sinfo_args[0].
VDevice vdeviceFromSInfoArgs(const CallNode &call, VDevice fallback) {
  if (!call.sinfoArgs.empty())
    if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(call.sinfoArgs[0].get()))
      if (t->vdevice)
        return t->vdevice;
  return fallback;
}

template <UnaryKind K>
llvm::Expected<StructInfo> inferUnary(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(call.args[0]->sinfo.get()))
    return primSInfo(K == UnaryKind::ToBool ? DataType::boolType() : p->dtype);
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  DataType dtype = (*t)->dtype;
  if (K == UnaryKind::FloatOnly && !dtype.isVoid() && !dtype.isFloat())
    return opError(call, "expects a float tensor, but got " + dtype.str());
  if (K == UnaryKind::ToBool)
    dtype = DataType::boolType();
  VDevice vdevice = vdeviceFromSInfoArgs(call, (*t)->vdevice);
  if (vdevice != (*t)->vdevice)
    return make<TensorSInfoNode>((*t)->shape, dtype, (*t)->ndim, vdevice);
  return withDType(*t, dtype);
}

struct UnaryDef {
  const char *name;
  InferFn infer;
};

constexpr InferFn kAny = inferUnary<UnaryKind::Any>;
constexpr InferFn kFloat = inferUnary<UnaryKind::FloatOnly>;
constexpr InferFn kToBool = inferUnary<UnaryKind::ToBool>;

// Float-only as TVM's RELAX_REGISTER_UNARY_ARITH_OP_AND_IMPL flags them.
const UnaryDef kUnaryOps[] = {
    {"abs", kAny},         {"acos", kFloat},   {"acosh", kFloat},  {"asin", kFloat},
    {"asinh", kFloat},     {"atan", kFloat},   {"atanh", kFloat},  {"bitwise_not", kAny},
    {"ceil", kAny},        {"cos", kFloat},    {"cosh", kFloat},   {"erf", kFloat},
    {"exp", kFloat},       {"floor", kAny},    {"log", kFloat},    {"logical_not", kAny},
    {"negative", kAny},    {"round", kAny},    {"rsqrt", kFloat},  {"sigmoid", kFloat},
    {"sign", kAny},        {"sin", kFloat},    {"sinh", kFloat},   {"square", kAny},
    {"sqrt", kFloat},      {"tan", kFloat},    {"tanh", kFloat},   {"trunc", kAny},
    {"isfinite", kToBool}, {"isinf", kToBool}, {"isnan", kToBool},
};

//===----------------------------------------------------------------------===//
// Binary broadcast
//===----------------------------------------------------------------------===//

enum class BinaryKind : uint8_t { Arith, Compare };

/// Dtype, ndim and dims (when known) of a tensor or prim operand.
struct Operand {
  DataType dtype;
  int ndim = -1;
  const std::vector<PrimExpr> *dims = nullptr;
  Expr shape;
  VDevice vdevice;
  bool isPrim = false;
};

llvm::Expected<Operand> operand(const CallNode &call, unsigned i) {
  static const std::vector<PrimExpr> kScalar;
  Operand op;
  const StructInfoNode *s = call.args[i]->sinfo.get();
  if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(s)) {
    op.dtype = p->dtype;
    op.ndim = 0;
    op.dims = &kScalar;
    op.isPrim = true;
    return op;
  }
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s);
  if (!t)
    return opError(call, "expects input " + argName(call, i) +
                             " to be a R.Tensor or R.Prim, but got " + sinfoKindName(s));
  op.dtype = t->dtype;
  op.ndim = t->ndim;
  op.dims = t->shapeValues();
  op.shape = t->shape;
  op.vdevice = t->vdevice;
  return op;
}

/// Broadcasts two operands into a tensor struct info of `dtype`.
llvm::Expected<StructInfo> broadcastResult(const CallNode &call, const Operand &a, const Operand &b,
                                           DataType dtype, VDevice vdevice) {
  int ndim = (a.ndim < 0 || b.ndim < 0) ? -1 : std::max(a.ndim, b.ndim);
  if (a.dims && b.dims) {
    auto dims = broadcastShapes(call, *a.dims, *b.dims);
    if (!dims)
      return dims.takeError();
    if (*dims)
      return tensorSInfo(std::move(**dims), dtype, vdevice);
    return tensorSInfoNDim(ndim, dtype, vdevice);
  }
  if (a.shape && a.shape.get() == b.shape.get())
    return make<TensorSInfoNode>(a.shape, dtype, a.ndim, vdevice);
  return tensorSInfoNDim(ndim, dtype, vdevice);
}

template <BinaryKind K>
llvm::Expected<StructInfo> inferBinary(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  auto a = operand(call, 0);
  if (!a)
    return a.takeError();
  auto b = operand(call, 1);
  if (!b)
    return b.takeError();
  DataType dtype = DataType::boolType();
  if (K == BinaryKind::Arith) {
    auto dt = binaryArithDType(call, a->dtype, b->dtype);
    if (!dt)
      return dt.takeError();
    dtype = *dt;
  }
  if (a->isPrim && b->isPrim)
    return primSInfo(dtype);
  auto vdevice = mergeVDevice(call, a->vdevice, b->vdevice);
  if (!vdevice)
    return vdevice.takeError();
  return broadcastResult(call, *a, *b, dtype, vdeviceFromSInfoArgs(call, *vdevice));
}

constexpr InferFn kArith = inferBinary<BinaryKind::Arith>;
constexpr InferFn kCompare = inferBinary<BinaryKind::Compare>;

const UnaryDef kBinaryOps[] = {
    {"add", kArith},
    {"subtract", kArith},
    {"multiply", kArith},
    {"divide", kArith},
    {"floor_divide", kArith},
    {"power", kArith},
    {"mod", kArith},
    {"floor_mod", kArith},
    {"maximum", kArith},
    {"log_add_exp", kArith},
    {"minimum", kArith},
    {"logical_and", kArith},
    {"logical_or", kArith},
    {"logical_xor", kArith},
    {"bitwise_and", kArith},
    {"bitwise_or", kArith},
    {"bitwise_xor", kArith},
    {"left_shift", kArith},
    {"right_shift", kArith},
    {"equal", kCompare},
    {"not_equal", kCompare},
    {"less", kCompare},
    {"less_equal", kCompare},
    {"greater", kCompare},
    {"greater_equal", kCompare},
};

//===----------------------------------------------------------------------===//
// ewise_fma
//===----------------------------------------------------------------------===//

/// ewise_fma(x1, x2, x3): three tensors of one ndim, dtype and (when all
/// are ShapeExprs) shape; no broadcasting.
llvm::Expected<StructInfo> inferEwiseFMA(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  const TensorSInfoNode *t[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto a = tensorArg(call, i);
    if (!a)
      return a.takeError();
    t[i] = *a;
  }
  int ndim = -1;
  for (const TensorSInfoNode *x : t) {
    if (x->ndim < 0)
      continue;
    if (ndim >= 0 && x->ndim != ndim)
      return opError(call, "expects its 3 arguments to have the same ndim, but got " +
                               std::to_string(ndim) + " and " + std::to_string(x->ndim));
    ndim = x->ndim;
  }
  DataType dtype;
  if (!t[0]->dtype.isVoid() && !t[1]->dtype.isVoid() && !t[2]->dtype.isVoid()) {
    if (t[0]->dtype != t[1]->dtype || t[1]->dtype != t[2]->dtype)
      return opError(call, "expects its 3 arguments to have the same dtype, but got " +
                               t[0]->dtype.str() + ", " + t[1]->dtype.str() + " and " +
                               t[2]->dtype.str());
    dtype = t[0]->dtype;
  }
  // As TVM: the first vdevice set, dropped when a later one differs.
  VDevice vdevice;
  for (const TensorSInfoNode *x : t) {
    if (!x->vdevice)
      continue;
    if (!vdevice) {
      vdevice = x->vdevice;
      continue;
    }
    if (llvm::Error differ = mergeVDevice(call, vdevice, x->vdevice).takeError()) {
      llvm::consumeError(std::move(differ));
      vdevice = VDevice();
      break;
    }
  }
  const std::vector<PrimExpr> *s[3] = {t[0]->shapeValues(), t[1]->shapeValues(),
                                       t[2]->shapeValues()};
  if (s[0] && s[1] && s[2]) {
    for (int d = 0; d < ndim; ++d)
      if (!proveEqual((*s[0])[d], (*s[1])[d]) || !proveEqual((*s[1])[d], (*s[2])[d]))
        return opError(call, "expects its 3 arguments to have the same shape, but dim " +
                                 std::to_string(d) + " is " + dimString((*s[0])[d]) + ", " +
                                 dimString((*s[1])[d]) + " and " + dimString((*s[2])[d]));
    return tensorSInfo(*s[0], dtype, vdevice);
  }
  if (t[0]->shape && t[0]->shape.get() == t[1]->shape.get() &&
      t[0]->shape.get() == t[2]->shape.get())
    return make<TensorSInfoNode>(t[0]->shape, dtype, t[0]->ndim, vdevice);
  return tensorSInfoNDim(ndim, dtype, vdevice);
}

//===----------------------------------------------------------------------===//
// clip, astype, where
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferClip(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  for (unsigned i = 1; i < 3; ++i)
    if (!llvm::isa_and_nonnull<PrimSInfoNode>(call.args[i]->sinfo.get()))
      return opError(call, "expects " + argName(call, i) + " to be a R.Prim, but got " +
                               sinfoKindName(call.args[i]->sinfo.get()));
  return StructInfo(*t);
}

llvm::Expected<StructInfo> inferAstype(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto dtype = dtypeAttr(call, "dtype");
  if (!dtype)
    return dtype.takeError();
  return withDType(*t, *dtype);
}

llvm::Expected<StructInfo> inferWhere(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  Operand ops[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto op = operand(call, i);
    if (!op)
      return op.takeError();
    ops[i] = *op;
  }
  if (!ops[0].dtype.isVoid() && !ops[0].dtype.isBool())
    return opError(call,
                   "expects the condition to be a bool tensor, but got " + ops[0].dtype.str());
  auto dtype = binaryArithDType(call, ops[1].dtype, ops[2].dtype);
  if (!dtype)
    return dtype.takeError();
  auto vd = mergeVDevice(call, ops[0].vdevice, ops[1].vdevice);
  if (!vd)
    return vd.takeError();
  auto vdevice = mergeVDevice(call, *vd, ops[2].vdevice);
  if (!vdevice)
    return vdevice.takeError();
  // Broadcast cond with x1, then the result with x2.
  auto first = broadcastResult(call, ops[0], ops[1], *dtype, *vdevice);
  if (!first)
    return first.takeError();
  const auto *t = llvm::cast<TensorSInfoNode>(first->get());
  Operand mid;
  mid.dtype = *dtype;
  mid.ndim = t->ndim;
  mid.dims = t->shapeValues();
  mid.shape = t->shape; // A shape var here is the one cond and x1 share.
  return broadcastResult(call, mid, ops[2], *dtype, *vdevice);
}

} // namespace

llvm::Expected<StructInfo> opdef::inferUnaryAny(const CallNode &call, const InferContext &ctx) {
  return inferUnary<UnaryKind::Any>(call, ctx);
}
llvm::Expected<StructInfo> opdef::inferUnaryFloat(const CallNode &call, const InferContext &ctx) {
  return inferUnary<UnaryKind::FloatOnly>(call, ctx);
}

void graft::registerElementwiseOps() {
  for (const UnaryDef &def : kUnaryOps)
    registerOp(makeOp(def.name, {arg("x")}, def.infer, OpPattern::ElemWise));
  for (const UnaryDef &def : kBinaryOps)
    registerOp(makeOp(def.name, {arg("x1"), arg("x2")}, def.infer, OpPattern::Broadcast));
  registerOp(makeOp("clip", {arg("x"), arg("min"), arg("max")}, inferClip, OpPattern::ElemWise));
  registerOp(makeOp("astype", {arg("x"), reqAttr("dtype", AttrKind::DType)}, inferAstype,
                    OpPattern::ElemWise));
  registerOp(
      makeOp("where", {arg("condition"), arg("x1"), arg("x2")}, inferWhere, OpPattern::Broadcast));
  // Opaque as in TVM, which has no legalization for it.
  registerOp(
      makeOp("ewise_fma", {arg("x1"), arg("x2"), arg("x3")}, inferEwiseFMA, OpPattern::Opaque));
}
