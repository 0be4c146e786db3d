//===- ir/ops/OpHelpers.cpp - Shared pieces of the op definitions ----------===//

#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace graft;
using namespace graft::opdef;

//===----------------------------------------------------------------------===//
// Schema builders
//===----------------------------------------------------------------------===//

OpParam opdef::arg(llvm::StringRef name, ParamKind kind) {
  OpParam p;
  p.name = name;
  p.kind = kind;
  return p;
}

OpParam opdef::optArg(llvm::StringRef name, ParamKind kind) {
  OpParam p = arg(name, kind);
  p.hasDefault = true;
  return p;
}

OpParam opdef::argOr(llvm::StringRef name, ParamKind kind, AttrValue def) {
  OpParam p = optArg(name, kind);
  p.defaultValue = std::move(def);
  return p;
}

OpParam opdef::attr(llvm::StringRef name, AttrKind kind, AttrValue def) {
  OpParam p = argOr(name, ParamKind::Attr, std::move(def));
  p.attrKind = kind;
  return p;
}

OpParam opdef::reqAttr(llvm::StringRef name, AttrKind kind) {
  OpParam p = arg(name, ParamKind::Attr);
  p.attrKind = kind;
  return p;
}

OpParam opdef::listAttr(llvm::StringRef name, AttrKind kind, AttrValue def) {
  OpParam p = attr(name, kind, std::move(def));
  p.wrapScalar = true;
  return p;
}

OpParam opdef::reqListAttr(llvm::StringRef name, AttrKind kind) {
  OpParam p = reqAttr(name, kind);
  p.wrapScalar = true;
  return p;
}

OpInfo opdef::makeOp(llvm::StringRef scriptName, std::vector<OpParam> params, InferFn infer,
                     OpPattern pattern) {
  OpInfo info;
  info.name = ("relax." + scriptName).str();
  info.params = std::move(params);
  info.infer = infer;
  info.pattern = pattern;
  return info;
}

AttrValue opdef::intListVal(llvm::ArrayRef<int64_t> values) {
  AttrArray arr;
  for (int64_t v : values)
    arr.push_back(AttrValue::integer(v));
  return AttrValue::array(std::move(arr));
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string opdef::opSpelling(const CallNode &call) {
  if (const OpInfo *info = call.opInfo())
    return ("R." + info->scriptName()).str();
  return "the call";
}

llvm::Error opdef::opError(const CallNode &call, const llvm::Twine &message) {
  return diagError(call.loc, opSpelling(call) + " " + message);
}

llvm::StringRef opdef::sinfoKindName(const StructInfoNode *s) {
  if (!s)
    return "no struct info";
  switch (s->getKind()) {
  case NodeKind::ObjectSInfo:
    return "R.Object";
  case NodeKind::PrimSInfo:
    return "R.Prim";
  case NodeKind::ShapeSInfo:
    return "R.Shape";
  case NodeKind::TensorSInfo:
    return "R.Tensor";
  case NodeKind::TupleSInfo:
    return "R.Tuple";
  case NodeKind::FuncSInfo:
    return "R.Callable";
  case NodeKind::DTensorSInfo:
    return "R.DTensor";
  default:
    return "an unknown struct info";
  }
}

std::string opdef::dimString(const PrimExpr &e) { return toString(e.get()); }

std::string opdef::shapeString(llvm::ArrayRef<PrimExpr> dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      out += ", ";
    out += dimString(dims[i]);
  }
  if (dims.size() == 1)
    out += ",";
  return out + ")";
}

//===----------------------------------------------------------------------===//
// Arguments and attributes
//===----------------------------------------------------------------------===//

llvm::Error opdef::checkArity(const CallNode &call, size_t min, size_t max) {
  size_t n = call.args.size();
  if (n >= min && n <= max)
    return llvm::Error::success();
  std::string want = min == max        ? std::to_string(min)
                     : max == SIZE_MAX ? "at least " + std::to_string(min)
                                       : std::to_string(min) + " to " + std::to_string(max);
  return opError(call, "expects " + want + " arguments, but got " + std::to_string(n));
}

std::string opdef::argName(const CallNode &call, unsigned i) {
  if (const OpInfo *info = call.opInfo()) {
    unsigned seen = 0;
    for (const OpParam &p : info->params) {
      if (p.kind == ParamKind::Attr)
        continue;
      if (p.kind == ParamKind::VarArgs || seen == i)
        return p.name.str();
      ++seen;
    }
  }
  return "#" + std::to_string(i);
}

static const StructInfoNode *argSInfo(const CallNode &call, unsigned i) {
  return i < call.args.size() && call.args[i] ? call.args[i]->sinfo.get() : nullptr;
}

llvm::Expected<const TensorSInfoNode *> opdef::tensorArg(const CallNode &call, unsigned i) {
  const StructInfoNode *s = argSInfo(call, i);
  if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s))
    return t;
  return opError(call, "expects input " + argName(call, i) + " to be a R.Tensor, but got " +
                           sinfoKindName(s));
}

llvm::Expected<const ShapeSInfoNode *> opdef::shapeArg(const CallNode &call, unsigned i) {
  const StructInfoNode *s = argSInfo(call, i);
  if (const auto *t = llvm::dyn_cast_or_null<ShapeSInfoNode>(s))
    return t;
  return opError(call, "expects input " + argName(call, i) + " to be a R.Shape, but got " +
                           sinfoKindName(s));
}

llvm::Expected<llvm::SmallVector<const TensorSInfoNode *, 4>>
opdef::tensorTupleArg(const CallNode &call, unsigned i) {
  const StructInfoNode *s = argSInfo(call, i);
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(s);
  if (!tuple)
    return opError(call, "expects input " + argName(call, i) +
                             " to be a tuple of tensors, but got " + sinfoKindName(s));
  llvm::SmallVector<const TensorSInfoNode *, 4> out;
  for (size_t k = 0; k < tuple->fields.size(); ++k) {
    const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(tuple->fields[k].get());
    if (!t)
      return opError(call, "expects every field of " + argName(call, i) +
                               " to be a R.Tensor, but field " + std::to_string(k) + " is " +
                               sinfoKindName(tuple->fields[k].get()));
    out.push_back(t);
  }
  return out;
}

const AttrValue &opdef::attrValue(const CallNode &call, llvm::StringRef name) {
  static const AttrValue none;
  if (call.attrs)
    if (const AttrValue *v = call.attrs->lookup(name))
      return *v;
  if (const OpInfo *info = call.opInfo())
    for (const OpParam &p : info->params)
      if (p.kind == ParamKind::Attr && p.name == name)
        return p.defaultValue;
  return none;
}

static llvm::Error badAttr(const CallNode &call, llvm::StringRef name, llvm::StringRef want) {
  return opError(call, "expects attribute " + name + " to be " + want);
}

llvm::Expected<int64_t> opdef::intAttr(const CallNode &call, llvm::StringRef name) {
  const AttrValue &v = attrValue(call, name);
  if (v.kind() == AttrValue::Kind::Int)
    return v.getInt();
  if (v.kind() == AttrValue::Kind::Prim)
    if (auto c = asConstInt(v.getPrim().get()))
      return *c;
  return badAttr(call, name, "an int");
}

llvm::Expected<llvm::Optional<int64_t>> opdef::optIntAttr(const CallNode &call,
                                                          llvm::StringRef name) {
  if (attrValue(call, name).isNone())
    return llvm::Optional<int64_t>();
  auto v = intAttr(call, name);
  if (!v)
    return v.takeError();
  return llvm::Optional<int64_t>(*v);
}

llvm::Expected<bool> opdef::boolAttr(const CallNode &call, llvm::StringRef name) {
  const AttrValue &v = attrValue(call, name);
  if (v.kind() == AttrValue::Kind::Bool)
    return v.getBool();
  if (v.kind() == AttrValue::Kind::Int)
    return v.getInt() != 0;
  if (v.isNone()) // TVM's Bool attrs read None as false.
    return false;
  return badAttr(call, name, "a bool");
}

llvm::Expected<DataType> opdef::dtypeAttr(const CallNode &call, llvm::StringRef name) {
  const AttrValue &v = attrValue(call, name);
  if (v.kind() == AttrValue::Kind::DType)
    return v.getDType();
  if (v.isNone())
    return DataType::voidType();
  if (v.kind() == AttrValue::Kind::String)
    if (auto dt = DataType::parse(v.getString()))
      return *dt;
  return badAttr(call, name, "a dtype");
}

llvm::Expected<double> opdef::floatAttr(const CallNode &call, llvm::StringRef name) {
  const AttrValue &v = attrValue(call, name);
  if (v.kind() == AttrValue::Kind::Float)
    return v.getFloat();
  if (v.kind() == AttrValue::Kind::Int)
    return static_cast<double>(v.getInt());
  return badAttr(call, name, "a float");
}

llvm::Expected<std::string> opdef::stringAttr(const CallNode &call, llvm::StringRef name) {
  const AttrValue &v = attrValue(call, name);
  if (v.kind() == AttrValue::Kind::String)
    return v.getString();
  return badAttr(call, name, "a string");
}

llvm::Expected<llvm::Optional<llvm::SmallVector<int64_t, 4>>>
opdef::optIntListAttr(const CallNode &call, llvm::StringRef name) {
  using Result = llvm::Optional<llvm::SmallVector<int64_t, 4>>;
  const AttrValue &v = attrValue(call, name);
  if (v.isNone())
    return Result();
  llvm::SmallVector<int64_t, 4> out;
  if (v.kind() == AttrValue::Kind::Int) {
    out.push_back(v.getInt());
    return Result(std::move(out));
  }
  if (v.kind() != AttrValue::Kind::Array)
    return badAttr(call, name, "a list of ints");
  for (const AttrValue &e : v.getArray()) {
    if (e.kind() == AttrValue::Kind::Int)
      out.push_back(e.getInt());
    else if (auto c =
                 e.kind() == AttrValue::Kind::Prim ? asConstInt(e.getPrim().get()) : llvm::None)
      out.push_back(*c);
    else
      return badAttr(call, name, "a list of ints");
  }
  return Result(std::move(out));
}

//===----------------------------------------------------------------------===//
// Shapes and axes
//===----------------------------------------------------------------------===//

llvm::Expected<int> opdef::normalizeAxis(const CallNode &call, int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    return opError(call, "expects axis " + std::to_string(axis) + " to be in range [" +
                             std::to_string(-ndim) + ", " + std::to_string(ndim) +
                             ") for an input of " + std::to_string(ndim) + " dimensions");
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

llvm::Expected<llvm::SmallVector<int, 4>>
opdef::normalizeAxes(const CallNode &call, llvm::ArrayRef<int64_t> axes, int ndim) {
  llvm::SmallVector<int, 4> out;
  llvm::SmallVector<bool, 8> seen(std::max(ndim, 0), false);
  for (int64_t a : axes) {
    auto n = normalizeAxis(call, a, ndim);
    if (!n)
      return n.takeError();
    if (seen[*n])
      return opError(call,
                     "expects distinct axes, but axis " + std::to_string(*n) + " is repeated");
    seen[*n] = true;
    out.push_back(*n);
  }
  return out;
}

static bool isConstOne(const PrimExpr &e) {
  auto c = asConstInt(e.get());
  return c && *c == 1;
}

llvm::Expected<llvm::Optional<std::vector<PrimExpr>>>
opdef::broadcastShapes(const CallNode &call, llvm::ArrayRef<PrimExpr> a,
                       llvm::ArrayRef<PrimExpr> b) {
  using Result = llvm::Optional<std::vector<PrimExpr>>;
  size_t n = std::max(a.size(), b.size());
  std::vector<PrimExpr> out(n);
  for (size_t i = 1; i <= n; ++i) {
    PrimExpr da = i <= a.size() ? a[a.size() - i] : i64(1);
    PrimExpr db = i <= b.size() ? b[b.size() - i] : i64(1);
    PrimExpr &slot = out[n - i];
    if (isConstOne(da)) {
      slot = db;
    } else if (isConstOne(db) || proveEqual(da, db)) {
      slot = da;
    } else if (asConstInt(da.get()) && asConstInt(db.get())) {
      return opError(call, "expects broadcastable shapes, but dim " + dimString(da) + " of " +
                               shapeString(a) + " and dim " + dimString(db) + " of " +
                               shapeString(b) + " differ");
    } else {
      return Result(); // Undecidable statically: TVM falls back to ndim only.
    }
  }
  return Result(std::move(out));
}

PrimExpr opdef::i64(int64_t v) { return intImm(v); }

PrimExpr opdef::shapeProduct(llvm::ArrayRef<PrimExpr> dims) {
  if (dims.empty())
    return i64(1);
  PrimExpr prod = dims[0];
  for (size_t i = 1; i < dims.size(); ++i)
    prod = primBinary(PrimOp::Mul, prod, dims[i]);
  return simplify(prod);
}

llvm::Expected<DataType> opdef::binaryArithDType(const CallNode &call, DataType a, DataType b) {
  if (a.isVoid() || b.isVoid())
    return DataType::voidType();
  if (a == b || a.isBool() || b.isBool())
    return a;
  return opError(call, "expects the operands to have the same dtype, but got " + a.str() + " and " +
                           b.str());
}

llvm::Expected<VDevice> opdef::mergeVDevice(const CallNode &call, const VDevice &a,
                                            const VDevice &b) {
  if (!a)
    return b;
  if (!b || a.get() == b.get())
    return a;
  if (a->targetKind == b->targetKind && a->vdeviceId == b->vdeviceId &&
      a->memoryScope == b->memoryScope)
    return a;
  return opError(call, "expects the operands to be on the same vdevice, but got " + a->targetKind +
                           ":" + std::to_string(a->vdeviceId) + " and " + b->targetKind + ":" +
                           std::to_string(b->vdeviceId));
}

StructInfo opdef::withDType(const TensorSInfoNode *t, DataType dtype) {
  if (t->dtype == dtype)
    return t;
  return make<TensorSInfoNode>(t->shape, dtype, t->ndim, t->vdevice);
}

StructInfo opdef::tensorFrom(const std::vector<PrimExpr> *dims, int ndim, DataType dtype,
                             VDevice vdevice) {
  if (dims)
    return tensorSInfo(*dims, dtype, std::move(vdevice));
  return tensorSInfoNDim(ndim, dtype, std::move(vdevice));
}

StructInfo opdef::sinfoFromSInfoArgs(const CallNode &call) {
  if (call.sinfoArgs.empty())
    return objectSInfo();
  if (call.sinfoArgs.size() == 1)
    return call.sinfoArgs[0];
  return tupleSInfo(call.sinfoArgs);
}

llvm::Expected<VDevice> opdef::vdeviceFromIndexArg(const CallNode &call, unsigned arg,
                                                   const InferContext &ctx) {
  if (!ctx.module || arg >= call.args.size())
    return VDevice();
  const auto *pv = llvm::dyn_cast_or_null<PrimValueNode>(call.args[arg].get());
  auto index = pv ? asConstInt(pv->value.get()) : llvm::None;
  if (!index)
    return VDevice();
  std::vector<VDevice> vdevices = ctx.module->vdevices();
  if (vdevices.empty())
    return VDevice();
  if (*index < 0)
    return opError(call, "expects a non-negative device index, but got " + std::to_string(*index));
  if (static_cast<size_t>(*index) >= vdevices.size())
    return VDevice();
  return vdevices[*index];
}

const std::vector<PrimExpr> *opdef::knownDims(const TensorSInfoNode *t) {
  if (const std::vector<PrimExpr> *dims = t->shapeValues())
    return dims;
  if (t->shape)
    if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(t->shape->sinfo.get()))
      return ss->values.getPointer();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Data layouts
//===----------------------------------------------------------------------===//

/// Parses `layout` against the canonical axis letters (e.g. "NCHW").
llvm::Expected<Layout> opdef::parseLayout(const CallNode &call, llvm::StringRef layout,
                                          llvm::StringRef canonical, llvm::StringRef what) {
  Layout l;
  auto bad = [&](const std::string &why) {
    return opError(call, "expects " + what + " \"" + layout + "\" to be a layout of " + canonical +
                             " (" + why + ")");
  };
  for (size_t i = 0; i < layout.size();) {
    int64_t factor = 0;
    while (i < layout.size() && llvm::isDigit(layout[i]))
      factor = factor * 10 + (layout[i++] - '0');
    if (i == layout.size())
      return bad("a factor without an axis");
    char c = layout[i++];
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower)
      return bad(std::string("unexpected '") + c + "'");
    if (upper != (factor == 0))
      return bad(upper ? "a primal axis with a factor" : "a sub-axis without a factor");
    if (!canonical.contains(upper ? c : static_cast<char>(c - 'a' + 'A')))
      return bad(std::string("unknown axis '") + c + "'");
    for (const LayoutAxis &a : l.axes)
      if (a.name == c)
        return bad(std::string("axis '") + c + "' twice");
    l.axes.push_back({c, factor});
  }
  for (char c : canonical)
    if (llvm::none_of(l.axes, [&](const LayoutAxis &a) { return a.name == c; }))
      return bad(std::string("no axis '") + c + "'");
  return l;
}

PrimExpr opdef::simplified(PrimOp op, PrimExpr a, PrimExpr b) {
  return simplify(primBinary(op, std::move(a), std::move(b)));
}

/// A shape in `l` brought to the canonical order: a split axis multiplies
/// back together.
std::vector<PrimExpr> opdef::toCanonical(const Layout &l, llvm::ArrayRef<PrimExpr> dims,
                                         llvm::StringRef canonical) {
  std::vector<PrimExpr> out;
  for (char c : canonical) {
    PrimExpr d;
    for (int i = 0; i < l.ndim(); ++i)
      if (l.axes[i].name == c)
        d = dims[i];
    for (int i = 0; i < l.ndim(); ++i)
      if (l.axes[i].factor && l.axes[i].name == c - 'A' + 'a')
        d = simplified(PrimOp::Mul, d, dims[i]);
    out.push_back(d);
  }
  return out;
}

/// A canonical shape laid out in `l`: a split axis gives its outer extent
/// and its factor.
std::vector<PrimExpr> opdef::fromCanonical(const Layout &l, llvm::ArrayRef<PrimExpr> dims,
                                           llvm::StringRef canonical) {
  std::vector<PrimExpr> out;
  for (const LayoutAxis &a : l.axes) {
    if (a.factor) {
      out.push_back(i64(a.factor));
      continue;
    }
    PrimExpr d = dims[canonical.find(a.name)];
    for (const LayoutAxis &sub : l.axes)
      if (sub.factor && sub.name == a.name - 'A' + 'a')
        d = simplified(PrimOp::FloorDiv, d, i64(sub.factor));
    out.push_back(d);
  }
  return out;
}
