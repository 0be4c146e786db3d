//===- text/ParseCall.cpp - Calls: ops, builtins, globals, closures ---------===//
//
// Matches a call's arguments against the op's wrapper parameters (ir/Op.h),
// converting each as its ParamKind/AttrKind says and filling defaults so
// every attribute field is present; handles the special text forms
// (call_tir, call_packed, print/assert, emit_with_sinfo, ...) and R.const.
//
//===----------------------------------------------------------------------===//

#include "text/ParserImpl.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <functional>

using namespace graft;
using namespace graft::parse;

namespace {

bool isSInfoArgsKw(llvm::StringRef k) { return k == "sinfo_args" || k == "ty_args"; }

} // namespace

llvm::Expected<std::vector<StructInfo>> Parser::sinfoList(uint32_t n) {
  std::vector<StructInfo> out;
  const Ast &a = ast_[n];
  if (a.kind == AK::Tuple || a.kind == AK::List) {
    for (uint32_t i = 0; i < a.count; ++i) {
      auto s = toSInfo(kid(n, i), SInfoCtx{});
      if (!s)
        return s.takeError();
      out.push_back(*s);
    }
    return out;
  }
  auto s = toSInfo(n, SInfoCtx{});
  if (!s)
    return s.takeError();
  out.push_back(*s);
  return out;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

llvm::Expected<AttrValue> Parser::toAnyAttr(uint32_t n) {
  if (depth_ > kMaxNestingDepth)
    return astError(n, "nesting too deep");
  const Ast &a = ast_[n];
  switch (a.kind) {
  case AK::None:
    return AttrValue::none();
  case AK::True:
  case AK::False:
    return AttrValue::boolean(a.kind == AK::True);
  case AK::Str:
    return AttrValue::string(strValue(n).str());
  case AK::Int:
  case AK::Float:
  case AK::Unary:
    if (isIntLit(n)) {
      auto v = intValue(n);
      if (!v)
        return v.takeError();
      return AttrValue::integer(*v);
    }
    if (isNumLit(n)) {
      auto v = floatValue(n);
      if (!v)
        return v.takeError();
      return AttrValue::floating(*v);
    }
    break;
  case AK::Tuple:
  case AK::List:
    return attrArray(n);
  case AK::Dict:
    return attrDict(n);
  case AK::Call: {
    const Ast &callee = ast_[kid(n, 0)];
    if (callee.kind == AK::Name && (callee.text == "R.str" || callee.text == "R.dtype") &&
        a.count == 2 && ast_[kid(n, 1)].kind == AK::Str) {
      llvm::StringRef s = strValue(kid(n, 1));
      if (callee.text == "R.str")
        return AttrValue::string(s.str());
      auto dt = DataType::parse(s);
      if (!dt)
        return astError(kid(n, 1), "unknown dtype '" + s + "'");
      return AttrValue::dtype(*dt);
    }
    break;
  }
  default:
    break;
  }
  return exprAttr(n);
}

llvm::Expected<AttrValue> Parser::attrArray(uint32_t n) {
  const Ast &a = ast_[n];
  AttrArray arr;
  ++depth_;
  for (uint32_t i = 0; i < a.count; ++i) {
    auto v = toAnyAttr(kid(n, i));
    if (!v) {
      --depth_;
      return v;
    }
    arr.push_back(std::move(*v));
  }
  --depth_;
  return AttrValue::array(std::move(arr));
}

llvm::Expected<AttrValue> Parser::attrDict(uint32_t n) {
  const Ast &a = ast_[n];
  AttrDict dict;
  ++depth_;
  for (uint32_t i = 0; i + 1 < a.count; i += 2) {
    uint32_t k = kid(n, i);
    if (ast_[k].kind != AK::Str) {
      --depth_;
      return astError(k, "dictionary keys must be strings");
    }
    auto v = toAnyAttr(kid(n, i + 1));
    if (!v) {
      --depth_;
      return v;
    }
    dict.emplace_back(strValue(k).str(), std::move(*v));
  }
  --depth_;
  return AttrValue::dict(std::move(dict));
}

llvm::Expected<AttrValue> Parser::exprAttr(uint32_t n) {
  const Ast &a = ast_[n];
  if (classify(n) == Cls::Prim) {
    auto p = toPrim(n, SInfoCtx{});
    if (!p)
      return p.takeError();
    return AttrValue::prim(*p);
  }
  if (a.kind == AK::Name &&
      (a.text.startswith("R.") && a.text.size() > 2 && a.text[2] >= 'A' && a.text[2] <= 'Z')) {
    auto s = toSInfo(n, SInfoCtx{});
    if (!s)
      return s.takeError();
    return AttrValue::sinfo(*s);
  }
  if (a.kind == AK::Call && ast_[kid(n, 0)].kind == AK::Name) {
    llvm::StringRef c = ast_[kid(n, 0)].text;
    if (c == "R.Tensor" || c == "R.Tuple" || c == "R.Shape" || c == "R.Prim" || c == "R.Callable" ||
        c == "R.Object" || c == "R.DTensor" || c == "R.dist.DTensor") {
      auto s = toSInfo(n, SInfoCtx{});
      if (!s)
        return s.takeError();
      return AttrValue::sinfo(*s);
    }
  }
  return astError(n, "unsupported attribute value");
}

llvm::Expected<AttrValue> Parser::toAttr(uint32_t n, AttrKind kind, bool wrapScalar) {
  const Ast &a = ast_[n];
  switch (kind) {
  case AttrKind::Bool:
    if (a.kind == AK::True || a.kind == AK::False)
      return AttrValue::boolean(a.kind == AK::True);
    if (isIntLit(n)) {
      auto v = intValue(n);
      if (!v)
        return v.takeError();
      return AttrValue::boolean(*v != 0);
    }
    return astError(n, "expected True or False");
  case AttrKind::Int:
  case AttrKind::OptionalInt: {
    if (a.kind == AK::None && kind == AttrKind::OptionalInt)
      return AttrValue::none();
    if (a.kind == AK::Call) {
      // T.int64(3) and the like.
      auto p = toPrim(n, SInfoCtx{});
      if (!p)
        return p.takeError();
      if (auto c = asConstInt(p->get()))
        return AttrValue::integer(*c);
      return astError(n, "expected an integer");
    }
    auto v = intValue(n);
    if (!v)
      return v.takeError();
    return AttrValue::integer(*v);
  }
  case AttrKind::Float:
  case AttrKind::FloatOrNone: {
    if (a.kind == AK::None && kind == AttrKind::FloatOrNone)
      return AttrValue::none();
    auto v = floatValue(n);
    if (!v)
      return v.takeError();
    return AttrValue::floating(*v);
  }
  case AttrKind::String:
    if (a.kind == AK::Str)
      return AttrValue::string(strValue(n).str());
    return toAnyAttr(n);
  case AttrKind::DType:
    return dtypeAttr(n);
  case AttrKind::IntList:
    return intListAttr(n, wrapScalar);
  case AttrKind::OptionalIntList:
    if (a.kind == AK::None)
      return AttrValue::none();
    return intListAttr(n, wrapScalar);
  case AttrKind::PrimList: {
    auto vals = primList(n, SInfoCtx{});
    if (!vals)
      return vals.takeError();
    AttrArray arr;
    for (PrimExpr &p : *vals)
      arr.push_back(AttrValue::prim(std::move(p)));
    return AttrValue::array(std::move(arr));
  }
  case AttrKind::IndexMap:
    return indexMapAttr(n);
  case AttrKind::Any:
    return toAnyAttr(n);
  }
  return toAnyAttr(n);
}

llvm::Expected<AttrValue> Parser::indexMapAttr(uint32_t n) {
  // A bare lambda is what layout_transform's wrapper turns into an int64
  // map (IndexMap.from_func); T.index_map names the index dtype.
  if (ast_[n].kind == AK::Lambda) {
    auto m = lambdaIndexMap(n, DataType::int64());
    if (!m)
      return m.takeError();
    return AttrValue::indexMap(std::move(*m));
  }
  const Ast &a = ast_[n];
  if (a.kind != AK::Call || ast_[kid(n, 0)].kind != AK::Name ||
      ast_[kid(n, 0)].text != "T.index_map")
    return astError(n, "expected an index map: a lambda or T.index_map(lambda ...)");
  CallParts c{n, "T.index_map", {}, {}};
  callArgs(n, c.pos, c.kw);
  int64_t mapping = c.pos.empty() ? kwArg(c, "mapping") : c.pos[0];
  if (mapping < 0 || c.pos.size() > 1 || ast_[mapping].kind != AK::Lambda)
    return astError(n, "T.index_map takes one lambda");
  DataType dt = DataType::int64();
  if (int64_t k = kwArg(c, "index_dtype"); k >= 0) {
    auto parsed = ast_[k].kind == AK::Str ? DataType::parse(strValue(k)) : llvm::None;
    if (!parsed || !parsed->isInt())
      return astError(k, "expected an integer index dtype such as \"int32\"");
    dt = *parsed;
  }
  if (auto err = checkKeywords(c, {"mapping", "index_dtype", "inverse_index_map"}))
    return err;
  auto m = lambdaIndexMap(mapping, dt);
  if (!m)
    return m.takeError();
  if (int64_t inv = kwArg(c, "inverse_index_map"); inv >= 0 && ast_[inv].kind != AK::None) {
    if (ast_[inv].kind != AK::Lambda)
      return astError(inv, "expected a lambda as the inverse index map");
    auto im = lambdaIndexMap(inv, dt);
    if (!im)
      return im.takeError();
    return AttrValue::indexMap(make<IndexMapNode>((*m)->initial, (*m)->final, std::move(*im)));
  }
  return AttrValue::indexMap(std::move(*m));
}

llvm::Expected<IndexMap> Parser::lambdaIndexMap(uint32_t n, DataType indexDType) {
  const Ast &a = ast_[n];
  std::vector<TirVar> params;
  pushScope();
  struct ScopeGuard {
    Parser &p;
    ~ScopeGuard() { p.popScope(); }
  } guard{*this};
  for (uint32_t i = 0; i + 1 < a.count; ++i) {
    llvm::StringRef name = ast_[kid(n, i)].text;
    for (const TirVar &prev : params)
      if (prev->name == name)
        return astError(kid(n, i), "duplicate lambda parameter '" + name + "'");
    params.push_back(make<TirVarNode>(name.str(), indexDType));
    define(name, Sym{Sym::Tir, params.back()});
  }
  uint32_t body = kid(n, a.count - 1);
  SInfoCtx ctx;
  ctx.intLiteral = indexDType;
  std::vector<PrimExpr> indices;
  bool tuple = ast_[body].kind == AK::Tuple || ast_[body].kind == AK::List;
  for (uint32_t i = 0, e = tuple ? ast_[body].count : 1; i < e; ++i) {
    auto index = toPrim(tuple ? kid(body, i) : body, ctx);
    if (!index)
      return index.takeError();
    indices.push_back(std::move(*index));
  }
  return make<IndexMapNode>(std::move(params), std::move(indices));
}

llvm::Expected<AttrValue> Parser::intListAttr(uint32_t list, bool wrapScalar) {
  const Ast &l = ast_[list];
  if (l.kind != AK::Tuple && l.kind != AK::List) {
    if (isIntLit(list) && wrapScalar) {
      auto v = intValue(list);
      if (!v)
        return v.takeError();
      return AttrValue::array({AttrValue::integer(*v)});
    }
    return astError(list, "expected a list of integers");
  }
  AttrArray arr;
  for (uint32_t i = 0; i < l.count; ++i) {
    auto v = intValue(kid(list, i));
    if (!v)
      return v.takeError();
    arr.push_back(AttrValue::integer(*v));
  }
  return AttrValue::array(std::move(arr));
}

llvm::Expected<AttrValue> Parser::dtypeAttr(uint32_t n) {
  const Ast &a = ast_[n];
  if (a.kind == AK::None)
    return AttrValue::dtype(DataType::voidType());
  llvm::StringRef s;
  if (a.kind == AK::Str)
    s = strValue(n);
  else if (a.kind == AK::Call && a.count == 2 && ast_[kid(n, 1)].kind == AK::Str)
    s = strValue(kid(n, 1));
  else if (a.kind == AK::Name && a.text.startswith("T."))
    s = a.text.drop_front(2);
  else
    return astError(n, "expected a dtype string");
  if (s.empty() || s == "void")
    return AttrValue::dtype(DataType::voidType());
  auto dt = DataType::parse(s);
  if (!dt)
    return astError(n, "unknown dtype '" + s + "'");
  return AttrValue::dtype(*dt);
}

//===----------------------------------------------------------------------===//
// Parameter conversion
//===----------------------------------------------------------------------===//

llvm::Expected<Expr> Parser::convertParam(uint32_t n, ParamKind kind) {
  const Ast &a = ast_[n];
  switch (kind) {
  case ParamKind::Shape:
    if (a.kind == AK::Tuple || a.kind == AK::List) {
      auto vals = primList(n, SInfoCtx{});
      if (!vals)
        return vals.takeError();
      return shapeExpr(std::move(*vals));
    }
    return toExpr(n);
  case ParamKind::PrimValue:
    if (a.kind == AK::True || a.kind == AK::False || isIntLit(n) || classify(n) == Cls::Prim ||
        classify(n) == Cls::PyNum) {
      auto p = toPrim(n, SInfoCtx{});
      if (!p)
        return p.takeError();
      return primValue(*p);
    }
    return toExpr(n);
  case ParamKind::String:
    if (a.kind == AK::Str)
      return stringImm(strValue(n).str());
    return toExpr(n);
  case ParamKind::DType:
    if (a.kind == AK::Str || a.kind == AK::None) {
      auto v = toAttr(n, AttrKind::DType, false);
      if (!v)
        return v.takeError();
      return dataTypeImm(v->getDType());
    }
    return toExpr(n);
  default:
    return toExpr(n);
  }
}

llvm::Expected<llvm::Optional<Expr>> Parser::defaultParam(const OpParam &p) {
  const AttrValue &d = p.defaultValue;
  switch (d.kind()) {
  case AttrValue::Kind::None:
    return llvm::Optional<Expr>();
  case AttrValue::Kind::Int:
  case AttrValue::Kind::Bool: {
    int64_t v = d.kind() == AttrValue::Kind::Int ? d.getInt() : d.getBool();
    return primValueInt(v);
  }
  case AttrValue::Kind::Float:
    return primValue(floatImm(d.getFloat()));
  case AttrValue::Kind::String:
    if (p.kind == ParamKind::DType) {
      auto dt = DataType::parse(d.getString());
      return dataTypeImm(dt ? *dt : DataType::voidType());
    }
    return stringImm(d.getString());
  case AttrValue::Kind::DType:
    return dataTypeImm(d.getDType());
  case AttrValue::Kind::Array: {
    if (p.kind == ParamKind::Shape && !d.getArray().empty()) {
      std::vector<PrimExpr> vals;
      for (const AttrValue &v : d.getArray())
        if (v.kind() == AttrValue::Kind::Int)
          vals.push_back(intImm(v.getInt()));
      return shapeExpr(std::move(vals));
    }
    std::vector<Expr> fields;
    for (const AttrValue &v : d.getArray())
      if (v.kind() == AttrValue::Kind::Int)
        fields.push_back(primValueInt(v.getInt()));
    return tupleExpr(std::move(fields));
  }
  case AttrValue::Kind::Prim:
    return primValue(d.getPrim());
  default:
    return llvm::Optional<Expr>();
  }
}

//===----------------------------------------------------------------------===//
// R.const
//===----------------------------------------------------------------------===//

namespace {

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(half);
}

uint16_t floatToBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

template <typename T> void appendRaw(std::vector<uint8_t> &bytes, T v) {
  uint8_t buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  bytes.insert(bytes.end(), buf, buf + sizeof(T));
}

void appendScalar(std::vector<uint8_t> &bytes, DataType dt, double f, int64_t i, bool isInt) {
  double v = isInt ? static_cast<double>(i) : f;
  auto toInt = [&]() -> int64_t {
    if (isInt)
      return i;
    if (!(v == v) || v >= 9.2e18 || v <= -9.2e18)
      return 0;
    return static_cast<int64_t>(v);
  };
  if (dt.isBool()) {
    bytes.push_back(v != 0 ? 1 : 0);
    return;
  }
  if (dt.code == DataType::Float) {
    if (dt.bits == 16)
      appendRaw(bytes, floatToHalf(static_cast<float>(v)));
    else if (dt.bits == 64)
      appendRaw(bytes, v);
    else
      appendRaw(bytes, static_cast<float>(v));
    return;
  }
  if (dt.code == DataType::BFloat) {
    appendRaw(bytes, floatToBF16(static_cast<float>(v)));
    return;
  }
  int64_t iv = toInt();
  switch (dt.bits) {
  case 8:
    appendRaw(bytes, static_cast<uint8_t>(iv));
    break;
  case 16:
    appendRaw(bytes, static_cast<uint16_t>(iv));
    break;
  case 32:
    appendRaw(bytes, static_cast<uint32_t>(iv));
    break;
  default:
    appendRaw(bytes, static_cast<uint64_t>(iv));
    break;
  }
}

} // namespace

llvm::Expected<Expr> Parser::constant(uint32_t n) {
  llvm::SmallVector<uint32_t, 4> pos, kw;
  callArgs(n, pos, kw);
  uint32_t value = 0, dtypeNode = 0;
  bool hasValue = false, hasDType = false;
  if (!pos.empty())
    value = pos[0], hasValue = true;
  if (pos.size() > 1)
    dtypeNode = pos[1], hasDType = true;
  // R.dist.const(value, R.DTensor(...)): the struct info stands for the dtype.
  bool dist = ast_[kid(n, 0)].text == "R.dist.const";
  llvm::StringRef fn = dist ? "R.dist.const" : "R.const";
  if (pos.size() > 2)
    return astError(pos[2], fn + " takes at most two positional arguments");
  for (uint32_t k : kw) {
    llvm::StringRef name = ast_[k].text;
    if (name == "value")
      value = kid(k, 0), hasValue = true;
    else if (name == (dist ? "struct_info" : "dtype"))
      dtypeNode = kid(k, 0), hasDType = true;
    else
      return astError(k, fn + " got an unexpected keyword argument '" + name + "'");
  }
  if (!hasValue)
    return astError(n, fn + " needs a value");
  StructInfo distSInfo;
  if (dist) {
    if (!hasDType)
      return astError(n, "R.dist.const needs a DTensor struct info");
    auto s = toSInfo(dtypeNode, SInfoCtx{});
    if (!s)
      return s.takeError();
    if (!llvm::isa<DTensorSInfoNode>(s->get()))
      return astError(dtypeNode, "R.dist.const needs a DTensor struct info");
    distSInfo = *s;
    hasDType = false;
  }
  // Flatten nested lists, recording the shape.
  std::vector<int64_t> shape;
  std::vector<uint32_t> leaves;
  bool anyFloat = false, allBool = true;
  std::function<llvm::Error(uint32_t, size_t)> walk = [&](uint32_t e, size_t dim) -> llvm::Error {
    if (dim > 64)
      return astError(e, "nesting too deep");
    const Ast &a = ast_[e];
    if (a.kind == AK::List || a.kind == AK::Tuple) {
      if (dim == shape.size())
        shape.push_back(a.count);
      else if (dim > shape.size() || shape[dim] != a.count)
        return astError(e, "R.const: ragged nested list");
      for (uint32_t i = 0; i < a.count; ++i)
        if (auto err = walk(kid(e, i), dim + 1))
          return err;
      return llvm::Error::success();
    }
    if (dim != shape.size())
      return astError(e, "R.const: ragged nested list");
    if (a.kind == AK::True || a.kind == AK::False) {
      leaves.push_back(e);
      return llvm::Error::success();
    }
    allBool = false;
    if (!isIntLit(e))
      anyFloat = true;
    leaves.push_back(e);
    return llvm::Error::success();
  };
  if (auto err = walk(value, 0))
    return err;
  DataType dt = allBool && !leaves.empty() ? DataType::boolType()
                : anyFloat                 ? DataType::float32()
                                           : DataType::int32();
  if (hasDType) {
    auto v = toAttr(dtypeNode, AttrKind::DType, false);
    if (!v)
      return v.takeError();
    if (!v->getDType().isVoid())
      dt = v->getDType();
  }
  if (distSInfo && !llvm::cast<DTensorSInfoNode>(distSInfo.get())->tensor->dtype.isVoid())
    dt = llvm::cast<DTensorSInfoNode>(distSInfo.get())->tensor->dtype;
  // Constant data is stored one element per whole byte: sub-byte ints (int4) have no layout here.
  bool byteWidth = dt.isBool() || dt.bits == 8 || dt.bits == 16 || dt.bits == 32 || dt.bits == 64;
  if (dt.isVoid() || dt.isHandle() || dt.lanes != 1 || !byteWidth)
    return astError(n, "R.const: unsupported dtype '" + dt.str() + "'");
  auto data = std::make_shared<TensorData>();
  data->dtype = dt;
  data->shape = shape;
  data->bytes.reserve(leaves.size() * dt.storageBytes());
  for (uint32_t e : leaves) {
    if (isIntLit(e) || ast_[e].kind == AK::True || ast_[e].kind == AK::False) {
      auto v = intValue(e);
      if (!v)
        return v.takeError();
      appendScalar(data->bytes, dt, 0, *v, true);
    } else {
      auto v = floatValue(e);
      if (!v)
        return v.takeError();
      appendScalar(data->bytes, dt, *v, 0, false);
    }
  }
  return Expr(make<ConstantNode>(std::shared_ptr<const TensorData>(std::move(data)), distSInfo));
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool Parser::isBuiltinCall(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("R.const", "R.shape", "R.prim_value", "R.str", "R.ExternFunc", "R.dtype", true)
      .Case("R.dist.const", true)
      .Cases("R.tuple", "R.call_packed", "R.emit_with_sinfo", true)
      .Cases("R.match_cast", "R.output", "R.func_attr", true)
      .Default(false);
}

llvm::Expected<Expr> Parser::builtinCall(uint32_t n, llvm::StringRef name, StructInfo annotation) {
  CallParts c{n, name, {}, {}};
  callArgs(n, c.pos, c.kw);
  if (name == "R.const" || name == "R.dist.const")
    return constant(n);
  if (name == "R.shape") {
    auto a = soleArg(c, "a list of dims");
    if (!a)
      return a.takeError();
    auto vals = primList(*a, SInfoCtx{});
    if (!vals)
      return vals.takeError();
    return shapeExpr(std::move(*vals));
  }
  if (name == "R.prim_value") {
    auto a = soleArg(c, "a value");
    if (!a)
      return a.takeError();
    // Python's bool is an int: R.prim_value(True) holds int64 1.
    if (ast_[*a].kind == AK::True || ast_[*a].kind == AK::False)
      return primValueInt(ast_[*a].kind == AK::True ? 1 : 0);
    auto p = toPrim(*a, SInfoCtx{});
    if (!p)
      return p.takeError();
    return primValue(*p);
  }
  if (name == "R.str" || name == "R.ExternFunc" || name == "R.dtype")
    return stringBuiltin(c);
  if (name == "R.tuple") {
    if (!c.kw.empty())
      return astError(c.kw[0], "R.tuple takes no keyword arguments");
    std::vector<Expr> fields;
    for (uint32_t p : c.pos) {
      auto f = toExpr(p);
      if (!f)
        return f;
      fields.push_back(*f);
    }
    return tupleExpr(std::move(fields));
  }
  if (name == "R.call_packed")
    return packedCall(c, annotation);
  if (name == "R.emit_with_sinfo")
    return emitWithSInfoCall(c, annotation);
  if (name == "R.match_cast")
    return astError(n, "R.match_cast must be the whole right-hand side of a binding");
  assert((name == "R.output" || name == "R.func_attr") && "isBuiltinCall names more builtins");
  return astError(n, name + " must be a statement of its own");
}

llvm::Expected<uint32_t> Parser::soleArg(const CallParts &c, llvm::StringRef what) {
  if (c.pos.size() != 1 || !c.kw.empty())
    return astError(c.call, c.name + " takes exactly one argument (" + what + ")");
  return c.pos[0];
}

llvm::Expected<Expr> Parser::externFuncCall(const CallParts &c) {
  // R.ExternFunc("symbol") or, as TVM's constructor takes it,
  // R.ExternFunc("symbol", R.Callable(...)) / struct_info=R.Callable(...).
  if (auto err = checkKeywords(c, {"struct_info"}))
    return err;
  int64_t sinfoN = kwArg(c, "struct_info");
  if (c.pos.empty() || c.pos.size() > 2 || (c.pos.size() == 2 && sinfoN >= 0))
    return astError(c.call, "R.ExternFunc expects (\"symbol\", struct_info=None)");
  if (ast_[c.pos[0]].kind != AK::Str)
    return astError(c.pos[0], c.name + " expects a string");
  if (c.pos.size() == 2)
    sinfoN = c.pos[1];
  StructInfo sinfo;
  if (sinfoN >= 0 && ast_[sinfoN].kind != AK::None) {
    auto s = toSInfo(static_cast<uint32_t>(sinfoN), SInfoCtx{});
    if (!s)
      return s.takeError();
    if (!llvm::isa<FuncSInfoNode>(s->get()))
      return astError(static_cast<uint32_t>(sinfoN),
                      "R.ExternFunc's struct info must be R.Callable");
    sinfo = *s;
  }
  return make<ExternFuncNode>(strValue(c.pos[0]).str(), sinfo);
}

llvm::Expected<Expr> Parser::stringBuiltin(const CallParts &c) {
  if (c.name == "R.ExternFunc")
    return externFuncCall(c);
  auto a = soleArg(c, "a string");
  if (!a)
    return a.takeError();
  if (ast_[*a].kind != AK::Str)
    return astError(*a, c.name + " expects a string");
  if (c.name == "R.str")
    return stringImm(strValue(*a).str());
  auto v = toAttr(*a, AttrKind::DType, false);
  if (!v)
    return v.takeError();
  return dataTypeImm(v->getDType());
}

llvm::Expected<Expr> Parser::packedCall(const CallParts &c, StructInfo annotation) {
  const auto &pos = c.pos;
  if (pos.empty() || ast_[pos[0]].kind != AK::Str)
    return astError(c.call, "R.call_packed expects the function name as a string first");
  std::vector<Expr> args;
  for (size_t i = 1; i < pos.size(); ++i) {
    auto e = toExpr(pos[i]);
    if (!e)
      return e;
    args.push_back(*e);
  }
  std::vector<StructInfo> sargs;
  AttrDict attrs;
  for (uint32_t k : c.kw) {
    if (isSInfoArgsKw(ast_[k].text)) {
      auto s = sinfoList(kid(k, 0));
      if (!s)
        return s.takeError();
      sargs = std::move(*s);
      continue;
    }
    auto v = toAnyAttr(kid(k, 0));
    if (!v)
      return v.takeError();
    attrs.emplace_back(ast_[k].text.str(), std::move(*v));
  }
  Attrs at = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
  return withLoc(make<CallNode>(externFunc(strValue(pos[0])), std::move(args), at, std::move(sargs),
                                annotation),
                 astLoc(c.call));
}

llvm::Expected<Expr> Parser::emitWithSInfoCall(const CallParts &c, StructInfo annotation) {
  const auto &pos = c.pos;
  if (pos.empty() || ast_[pos[0]].kind != AK::Str || pos.size() > 3 || !c.kw.empty())
    return astError(c.call, "R.emit_with_sinfo expects (\"relax.op\", (args...), (sinfo...))");
  llvm::StringRef opName = strValue(pos[0]);
  const OpInfo *info = lookupOp(opName);
  if (!info || !llvm::StringRef(opName).startswith("relax."))
    return astError(pos[0], "unknown op '" + opName + "'");
  std::vector<Expr> args;
  if (pos.size() > 1) {
    const Ast &t = ast_[pos[1]];
    if (t.kind != AK::Tuple && t.kind != AK::List)
      return astError(pos[1], "R.emit_with_sinfo expects a tuple of arguments");
    for (uint32_t i = 0; i < t.count; ++i) {
      auto e = toExpr(kid(pos[1], i));
      if (!e)
        return e;
      args.push_back(*e);
    }
  }
  std::vector<StructInfo> sargs;
  if (pos.size() > 2) {
    auto s = sinfoList(pos[2]);
    if (!s)
      return s.takeError();
    sargs = std::move(*s);
  }
  return withLoc(
      make<CallNode>(getOp(info->name), std::move(args), nullptr, std::move(sargs), annotation),
      astLoc(c.call));
}

llvm::Expected<Expr> Parser::toCall(uint32_t n, StructInfo annotation) {
  uint32_t calleeNode = kid(n, 0);
  const Ast &callee = ast_[calleeNode];
  llvm::SmallVector<uint32_t, 4> pos, kw;
  callArgs(n, pos, kw);
  // Callee forms.
  Expr target;
  if (callee.kind == AK::Name) {
    llvm::StringRef name = callee.text;
    if (name.startswith("R.")) {
      if (isBuiltinCall(name))
        return builtinCall(n, name, annotation);
      llvm::StringRef opName = name.drop_front(2);
      if (const OpInfo *info = lookupOp(opName))
        return opCall(n, info, opName, annotation);
      if (!annotation)
        return astError(calleeNode,
                        "unknown op " + name + ": annotate the binding or register the op");
      return unknownOpCall(n, opName, annotation);
    }
    if (name.startswith("T.")) {
      auto p = toPrim(n, SInfoCtx{});
      if (!p)
        return p.takeError();
      return primValue(*p);
    }
    if (const Sym *s = lookup(name)) {
      if (s->kind != Sym::RelaxVar)
        return astError(calleeNode, "'" + name + "' is not callable");
      target = Expr(llvm::cast<VarNode>(s->node.get()));
    } else if (name.contains('.')) {
      auto [head, rest] = name.split('.');
      const Sym *hs = lookup(head);
      if ((hs && hs->kind == Sym::ModuleAlias) || (head == modName_ && !hs)) {
        auto it = gvars_.find(rest);
        if (it == gvars_.end())
          return astError(calleeNode, "module has no function '" + rest + "'");
        target = Expr(it->second);
      } else if (hs && hs->kind == Sym::RelaxVar && rest == "astype") {
        if (pos.size() != 1 && kw.size() != 1)
          return astError(n, "astype takes one dtype argument");
        uint32_t dtArg = pos.empty() ? kid(kw[0], 0) : pos[0];
        auto dt = toAttr(dtArg, AttrKind::DType, false);
        if (!dt)
          return dt.takeError();
        Op op = getOp("relax.astype");
        Attrs attrs = make<AttrsNode>(AttrDict{{"dtype", *dt}});
        return withLoc(make<CallNode>(op,
                                      std::vector<Expr>{Expr(llvm::cast<VarNode>(hs->node.get()))},
                                      attrs, std::vector<StructInfo>{}, annotation),
                       astLoc(n));
      } else {
        return astError(calleeNode, "undefined name '" + name + "'");
      }
    } else {
      return astError(calleeNode, "undefined name '" + name + "'");
    }
  } else {
    auto e = toExpr(calleeNode);
    if (!e)
      return e;
    target = *e;
  }
  if (!kw.empty())
    return astError(kw[0], "unexpected keyword argument '" + ast_[kw[0]].text + "'");
  std::vector<Expr> args;
  args.reserve(pos.size());
  for (uint32_t p : pos) {
    auto e = toExpr(p);
    if (!e)
      return e;
    args.push_back(*e);
  }
  return withLoc(
      make<CallNode>(target, std::move(args), nullptr, std::vector<StructInfo>{}, annotation),
      astLoc(n));
}

llvm::Expected<Expr> Parser::unknownOpCall(uint32_t n, llvm::StringRef name,
                                           StructInfo annotation) {
  llvm::SmallVector<uint32_t, 4> pos, kw;
  callArgs(n, pos, kw);
  std::vector<Expr> args;
  for (uint32_t p : pos) {
    auto e = toExpr(p);
    if (!e)
      return e;
    args.push_back(*e);
  }
  AttrDict attrs;
  std::vector<StructInfo> sargs;
  for (uint32_t k : kw) {
    if (isSInfoArgsKw(ast_[k].text)) {
      auto s = sinfoList(kid(k, 0));
      if (!s)
        return s.takeError();
      sargs = std::move(*s);
      continue;
    }
    auto v = toAnyAttr(kid(k, 0));
    if (!v)
      return v.takeError();
    attrs.emplace_back(ast_[k].text.str(), std::move(*v));
  }
  Attrs at = attrs.empty() ? Attrs() : make<AttrsNode>(std::move(attrs));
  return withLoc(make<CallNode>(getOrCreateUnknownOp(("relax." + name).str()), std::move(args), at,
                                std::move(sargs), annotation),
                 astLoc(n));
}

llvm::Expected<Expr> Parser::opCall(uint32_t n, const OpInfo *info, llvm::StringRef name,
                                    StructInfo annotation) {
  auto match = matchOpArgs(n, info, name);
  if (!match)
    return match.takeError();
  auto operands = convertOpArgs(n, info, name, *match);
  if (!operands)
    return operands.takeError();
  std::vector<Expr> &args = operands->args;
  std::vector<StructInfo> &sargs = match->sargs;
  // print/assert_op keep the format string at a fixed position.
  if (info->textForm == TextForm::PrintOrAssert && !args.empty()) {
    Expr fmt = args.back();
    args.pop_back();
    size_t at = info->name == "relax.print" ? 0 : std::min<size_t>(1, args.size());
    args.insert(args.begin() + static_cast<long>(at), fmt);
  }
  Attrs at = operands->anyAttr ? make<AttrsNode>(std::move(operands->attrs)) : Attrs();
  if (info->canonicalize)
    if (auto err = info->canonicalize(args, at))
      return llvm::handleErrors(
          std::move(err), [&](const llvm::ErrorInfoBase &e) { return astError(n, e.message()); });
  // TVM's R.to_vdevice wrapper looks the vdevice up in the module being
  // built (its global infos are parsed first), and the relax.distributed
  // wrappers their device mesh; other ops infer without them.
  bool needsModule = info->name == "relax.to_vdevice" || info->distInfer;
  if (!annotation && needsModule && mod_ && !args.empty() && args[0]->sinfo) {
    InferContext ctx;
    ctx.module = mod_;
    Ref<CallNode> probe = make<CallNode>(getOp(info->name), args, at, sargs, nullptr);
    if (auto s = inferCallSInfo(*probe, ctx))
      annotation = *s;
    else
      llvm::consumeError(s.takeError());
  }
  return withLoc(
      make<CallNode>(getOp(info->name), std::move(args), at, std::move(sargs), annotation),
      astLoc(n));
}

llvm::Expected<OpArgMatch> Parser::matchOpArgs(uint32_t n, const OpInfo *info,
                                               llvm::StringRef name) {
  CallParts c{n, name, {}, {}};
  callArgs(n, c.pos, c.kw);
  const std::vector<OpParam> &params = info->params;
  OpArgMatch m;
  m.filled.resize(params.size());
  m.given.assign(params.size(), false);
  TextForm form = info->textForm;
  if (form == TextForm::HintOnDevice && c.pos.size() >= 2 && ast_[c.pos[1]].kind == AK::Call)
    if (auto err = hintOnDeviceArgs(info, c, m))
      return err;
  if (auto err = positionalOutSInfo(info, c, m))
    return err;
  size_t pi = 0;
  for (uint32_t p : c.pos) {
    while (pi < params.size() && m.given[pi] && params[pi].kind != ParamKind::VarArgs)
      ++pi;
    if (pi >= params.size())
      return astError(p,
                      "R." + name + " takes at most " + llvm::Twine(params.size()) + " arguments");
    m.filled[pi].push_back(p);
    m.given[pi] = true;
    if (params[pi].kind != ParamKind::VarArgs)
      ++pi;
  }
  if (auto err = keywordOpArgs(info, c, m))
    return err;
  return m;
}

namespace {

/// The DLPack device type of a device constructor (`tvm.cuda`, `R.cpu`, ...)
/// or of a device name given to `R.device("cuda", 0)`, as TVM's runtime
/// spells them. The code is returned as literal text for a synthesized node.
llvm::StringRef deviceTypeCode(llvm::StringRef name) {
  return llvm::StringSwitch<llvm::StringRef>(name)
      .Cases("cpu", "llvm", "c", "stackvm", "1")
      .Cases("cuda", "gpu", "nvptx", "2")
      .Cases("opencl", "cl", "4")
      .Case("vulkan", "7")
      .Case("metal", "8")
      .Case("vpi", "9")
      .Case("rocm", "10")
      .Case("ext_dev", "12")
      .Case("webgpu", "15")
      .Case("hexagon", "16")
      .Default("");
}

/// The device constructors TVMScript's R namespace and tvm export.
bool isDeviceConstructor(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("cpu", "cuda", "opencl", "vulkan", "metal", true)
      .Cases("vpi", "rocm", "ext_dev", "webgpu", "hexagon", true)
      .Default(false);
}

/// `R.cuda` / `tvm.cuda` / `tvm.runtime.cuda` -> "cuda"; other names -> "".
llvm::StringRef deviceCallee(llvm::StringRef callee) {
  for (llvm::StringRef prefix : {"tvm.runtime.", "tvm.", "R."})
    if (callee.consume_front(prefix))
      return callee;
  return "";
}

} // namespace

uint32_t Parser::syntheticInt(uint32_t at, llvm::StringRef text) {
  Ast a;
  a.kind = AK::Int;
  a.tok = ast_[at].tok;
  a.text = text;
  ast_.push_back(a);
  return static_cast<uint32_t>(ast_.size() - 1);
}

llvm::Error Parser::hintOnDeviceArgs(const OpInfo *info, CallParts &c, OpArgMatch &m) {
  // R.hint_on_device(x, device, scope), the device written R.device(1, 0),
  // R.device(dev_type=, dev_id=), the printed R.device(device_type=, index=),
  // R.device("cuda", 0), or a constructor: tvm.cpu(), tvm.cuda(0), R.opencl(2).
  const std::vector<OpParam> &params = info->params;
  uint32_t dev = c.pos[1];
  llvm::SmallVector<uint32_t, 2> dpos, dkw;
  callArgs(dev, dpos, dkw);
  auto setAttr = [&](llvm::StringRef pname, uint32_t v) {
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == pname) {
        m.filled[i] = {v};
        m.given[i] = true;
      }
  };
  llvm::StringRef callee = ast_[kid(dev, 0)].text;
  llvm::StringRef ctor = deviceCallee(callee);
  if (ctor != "device" && !isDeviceConstructor(ctor))
    return astError(dev, "R.hint_on_device expects a device, R.device(type, index) or a "
                         "constructor such as tvm.cpu() or tvm.cuda(0), got '" +
                             callee + "(...)'");
  if (ctor == "device") {
    if (dpos.size() > 2)
      return astError(dpos[2], "R.device takes a device type and an index");
    if (!dpos.empty()) {
      uint32_t type = dpos[0];
      if (ast_[type].kind == AK::Str) {
        llvm::StringRef code = deviceTypeCode(plainString(type));
        if (code.empty())
          return astError(type, "unknown device type '" + plainString(type) + "'");
        type = syntheticInt(type, code);
      }
      setAttr("device_type", type);
    }
    if (dpos.size() > 1)
      setAttr("index", dpos[1]);
    for (uint32_t k : dkw) {
      llvm::StringRef kn = ast_[k].text;
      if (kn != "dev_type" && kn != "dev_id" && kn != "device_type" && kn != "index")
        return astError(k, "R.device got an unexpected keyword argument '" + kn + "'");
      setAttr(kn == "dev_type" ? "device_type" : kn == "dev_id" ? "index" : kn, kid(k, 0));
    }
  } else {
    if (dpos.size() + dkw.size() > 1)
      return astError(dev, callee + " takes one device index");
    setAttr("device_type", syntheticInt(dev, deviceTypeCode(ctor)));
    if (!dpos.empty())
      setAttr("index", dpos[0]);
    else if (!dkw.empty() && ast_[dkw[0]].text == "dev_id")
      setAttr("index", kid(dkw[0], 0));
    else if (!dkw.empty())
      return astError(dkw[0],
                      callee + " got an unexpected keyword argument '" + ast_[dkw[0]].text + "'");
    else
      setAttr("index", syntheticInt(dev, "0"));
  }
  c.pos.erase(c.pos.begin() + 1);
  if (c.pos.size() > 1) {
    setAttr("memory_scope", c.pos[1]);
    c.pos.erase(c.pos.begin() + 1);
  }
  return llvm::Error::success();
}

namespace {

/// The call forms whose out_sinfo may be given by keyword.
bool takesOutSInfo(TextForm form) {
  return form == TextForm::CallTIR || form == TextForm::CallTIRInplace ||
         form == TextForm::CallDPSPacked;
}

} // namespace

llvm::Error Parser::positionalOutSInfo(const OpInfo *info, CallParts &c, OpArgMatch &m) {
  // out_sinfo may be positional: call_tir(gv, args, out_sinfo, tir_vars),
  // call_dps_packed(f, args, out_sinfo), call_tir_inplace(gv, args,
  // inplace_indices, out_sinfo, tir_vars). It is not in `params`.
  TextForm form = info->textForm;
  size_t outSInfoPos = form == TextForm::CallTIRInplace                               ? 3
                       : form == TextForm::CallTIR || form == TextForm::CallDPSPacked ? 2
                                                                                      : SIZE_MAX;
  if (outSInfoPos >= c.pos.size())
    return llvm::Error::success();
  for (uint32_t k : c.kw)
    if (ast_[k].text == "out_sinfo")
      return astError(k, "R." + c.name + " got multiple values for argument 'out_sinfo'");
  auto s = sinfoList(c.pos[outSInfoPos]);
  if (!s)
    return s.takeError();
  m.sargs = std::move(*s);
  if (m.sargs.size() != 1)
    m.sargs = {tupleSInfo(std::move(m.sargs))};
  c.pos.erase(c.pos.begin() + static_cast<long>(outSInfoPos));
  return llvm::Error::success();
}

llvm::Error Parser::keywordOpArgs(const OpInfo *info, const CallParts &c, OpArgMatch &m) {
  const std::vector<OpParam> &params = info->params;
  for (uint32_t k : c.kw) {
    llvm::StringRef kn = ast_[k].text;
    if (isSInfoArgsKw(kn) || (kn == "out_sinfo" && takesOutSInfo(info->textForm))) {
      auto s = sinfoList(kid(k, 0));
      if (!s)
        return s.takeError();
      m.sargs = std::move(*s);
      if (kn == "out_sinfo" && m.sargs.size() != 1)
        m.sargs = {tupleSInfo(std::move(m.sargs))};
      continue;
    }
    size_t i = 0;
    while (i < params.size() && params[i].name != kn)
      ++i;
    if (i == params.size())
      return astError(k, "R." + c.name + " got an unexpected keyword argument '" + kn + "'");
    if (m.given[i])
      return astError(k, "R." + c.name + " got multiple values for argument '" + kn + "'");
    m.filled[i] = {kid(k, 0)};
    m.given[i] = true;
  }
  return llvm::Error::success();
}

llvm::Expected<OpOperands> Parser::convertOpArgs(uint32_t n, const OpInfo *info,
                                                 llvm::StringRef name, const OpArgMatch &m) {
  const std::vector<OpParam> &params = info->params;
  TextForm form = info->textForm;
  // The packed-call forms take the callee as a name string.
  bool packedCallee = form == TextForm::CallPurePacked || form == TextForm::CallInplacePacked ||
                      form == TextForm::CallBuiltinWithCtx || form == TextForm::CallDPSPacked;
  OpOperands out;
  for (size_t i = 0; i < params.size(); ++i) {
    const OpParam &p = params[i];
    if (p.kind == ParamKind::Attr)
      out.anyAttr = true;
    if (!m.given[i]) {
      if (p.kind == ParamKind::VarArgs)
        continue;
      if (!p.hasDefault)
        return astError(n, "R." + name + " missing required argument '" + p.name + "'");
      if (p.kind == ParamKind::Attr) {
        out.attrs.emplace_back(p.name.str(), p.defaultValue);
        continue;
      }
      auto d = defaultParam(p);
      if (!d)
        return d.takeError();
      if (*d)
        out.args.push_back(**d);
      continue;
    }
    if (p.kind == ParamKind::Attr) {
      auto v = toAttr(m.filled[i][0], p.attrKind, p.wrapScalar);
      if (!v)
        return v.takeError();
      out.attrs.emplace_back(p.name.str(), std::move(*v));
      continue;
    }
    if (p.kind == ParamKind::VarArgs) {
      for (uint32_t a : m.filled[i]) {
        auto e = toExpr(a);
        if (!e)
          return e.takeError();
        out.args.push_back(*e);
      }
      continue;
    }
    auto e = opArgExpr(m.filled[i][0], p, i == 0 && packedCallee, form);
    if (!e)
      return e.takeError();
    if (*e)
      out.args.push_back(**e);
  }
  return out;
}

llvm::Expected<llvm::Optional<Expr>> Parser::opArgExpr(uint32_t a, const OpParam &p,
                                                       bool calleeSlot, TextForm form) {
  if (ast_[a].kind == AK::None && p.hasDefault && p.defaultValue.isNone())
    return llvm::Optional<Expr>();
  if (ast_[a].kind == AK::None && p.hasDefault && p.defaultValue.kind() == AttrValue::Kind::Array)
    return defaultParam(p); // memory.view: None is the empty tuple.
  if (calleeSlot && ast_[a].kind == AK::Str)
    return llvm::Optional<Expr>(externFunc(strValue(a)));
  if (p.kind == ParamKind::ExprTuple) {
    const Ast &t = ast_[a];
    if (t.kind != AK::Tuple && t.kind != AK::List) {
      auto e = toExpr(a);
      if (!e)
        return e.takeError();
      if (takesOutSInfo(form) && !llvm::isa<TupleNode>(e->get()))
        return llvm::Optional<Expr>(tupleExpr({*e}));
      return llvm::Optional<Expr>(*e);
    }
  }
  auto e = convertParam(a, p.kind);
  if (!e)
    return e.takeError();
  return llvm::Optional<Expr>(*e);
}
