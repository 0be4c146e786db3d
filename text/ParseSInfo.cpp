//===- text/ParseSInfo.cpp - Struct info annotations and symbolic exprs -----===//
//
// R.Tensor/R.Shape/R.Prim/R.Tuple/R.Callable/R.Object (and R.Any) per
// TVM `python/tvm/script/parser/relax/`, and the PrimExprs inside them: literals, symbolic names,
// arithmetic, T.int64(...)/T.max/T.min, and the string forms of signatures
// ("n", "2 * n + 2"), which are parsed by a small grammar of their own.
//
//===----------------------------------------------------------------------===//

#include "text/ParserImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace graft;
using namespace graft::parse;

//===----------------------------------------------------------------------===//
// Symbolic expressions
//===----------------------------------------------------------------------===//

llvm::Expected<PrimExpr> Parser::primName(llvm::StringRef name, llvm::SMLoc loc,
                                          const SInfoCtx &ctx) {
  if (const Sym *s = lookup(name)) {
    if (s->kind == Sym::Tir) // A var, or what `C = T.int64(16)` bound.
      return PrimExpr(llvm::cast<PrimExprNode>(s->node.get()));
    return diagError(loc, "'" + name + "' is not a symbolic variable");
  }
  if (!ctx.autoDefine)
    return diagError(loc, "undefined name '" + name + "'");
  TirVar v = make<TirVarNode>(name.str(), DataType::int64());
  Sym sym;
  sym.kind = Sym::Tir;
  sym.node = v;
  define(name, sym);
  return PrimExpr(v);
}

namespace {

/// The grammar of a string shape: sums of products of atoms.
struct PrimStringParser {
  Parser &p;
  llvm::StringRef s;
  const char *base; ///< Where `s` starts in the buffer, or null.
  llvm::SMLoc fallback;
  const SInfoCtx &ctx;
  size_t i = 0;
  unsigned depth = 0;

  llvm::SMLoc here() const { return base ? llvm::SMLoc::getFromPointer(base + i) : fallback; }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
      ++i;
  }
  llvm::Error err(const llvm::Twine &m) { return diagError(here(), m); }

  /// Comparisons (not chained): what the printer writes inside T.And,
  /// T.if_then_else and the like.
  llvm::Expected<PrimExpr> compare() {
    auto lhs = sum();
    if (!lhs)
      return lhs;
    ws();
    static const std::pair<llvm::StringRef, PrimOp> ops[] = {{"<=", PrimOp::LE}, {">=", PrimOp::GE},
                                                             {"==", PrimOp::EQ}, {"!=", PrimOp::NE},
                                                             {"<", PrimOp::LT},  {">", PrimOp::GT}};
    for (const auto &[text, op] : ops) {
      if (!s.substr(i).startswith(text))
        continue;
      i += text.size();
      auto rhs = sum();
      if (!rhs)
        return rhs;
      return primBinary(op, *lhs, *rhs);
    }
    return lhs;
  }

  llvm::Expected<PrimExpr> sum() {
    if (++depth > kMaxNestingDepth)
      return err("nesting too deep");
    auto lhs = product();
    if (!lhs)
      return lhs;
    for (;;) {
      ws();
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        PrimOp op = s[i] == '+' ? PrimOp::Add : PrimOp::Sub;
        ++i;
        auto rhs = product();
        if (!rhs)
          return rhs;
        *lhs = primBinary(op, *lhs, *rhs);
      } else {
        --depth;
        return lhs;
      }
    }
  }

  llvm::Expected<PrimExpr> product() {
    auto lhs = unary();
    if (!lhs)
      return lhs;
    for (;;) {
      ws();
      PrimOp op;
      if (s.substr(i).startswith("//"))
        op = PrimOp::FloorDiv, i += 2;
      else if (i < s.size() && s[i] == '*' && s.substr(i, 2) != "**")
        op = PrimOp::Mul, ++i;
      else if (i < s.size() && s[i] == '%')
        op = PrimOp::FloorMod, ++i;
      else
        return lhs;
      auto rhs = unary();
      if (!rhs)
        return rhs;
      *lhs = primBinary(op, *lhs, *rhs);
    }
  }

  llvm::Expected<PrimExpr> unary() {
    ws();
    if (i < s.size() && s[i] == '-') {
      ++i;
      if (++depth > kMaxNestingDepth)
        return err("nesting too deep");
      auto e = unary();
      --depth;
      if (!e)
        return e;
      if (auto c = asConstInt(e->get()))
        if (*c != INT64_MIN)
          return intImm(-*c, (*e)->dtype);
      return primBinary(PrimOp::Mul, *e, intImm(-1, (*e)->dtype));
    }
    return atom();
  }

  llvm::Expected<PrimExpr> atom() {
    ws();
    if (i >= s.size())
      return err("expected a symbolic expression");
    char c = s[i];
    if (c == '(') {
      ++i;
      auto e = compare();
      if (!e)
        return e;
      ws();
      if (i >= s.size() || s[i] != ')')
        return err("expected ')'");
      ++i;
      return e;
    }
    if (c >= '0' && c <= '9') {
      size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9')
        ++i;
      uint64_t v = 0;
      if (s.slice(start, i).getAsInteger(10, v) || v > static_cast<uint64_t>(INT64_MAX))
        return err("integer literal out of range");
      return intImm(static_cast<int64_t>(v));
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      size_t start = i;
      while (i < s.size() &&
             (isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.'))
        ++i;
      llvm::StringRef name = s.slice(start, i);
      llvm::SMLoc at = base ? llvm::SMLoc::getFromPointer(base + start) : fallback;
      ws();
      if (i < s.size() && s[i] == '(') {
        // T.max(a, b) / T.min(a, b) / T.int64(k), the logical ops,
        // T.if_then_else(c, a, b) and T.Cast('dtype', x), as the printer
        // writes them inside a signature string.
        ++i;
        llvm::SmallVector<PrimExpr, 2> args;
        llvm::Optional<DataType> castTo;
        ws();
        if (name == "T.Cast" && i < s.size() && (s[i] == '\'' || s[i] == '"')) {
          size_t close = s.find(s[i], i + 1);
          if (close == llvm::StringRef::npos)
            return err("unterminated dtype string");
          castTo = DataType::parse(s.slice(i + 1, close));
          if (!castTo)
            return err("unknown dtype");
          i = close + 1;
          ws();
          if (i < s.size() && s[i] == ',')
            ++i;
        }
        while (i < s.size() && s[i] != ')') {
          auto a = compare();
          if (!a)
            return a;
          args.push_back(*a);
          ws();
          if (i < s.size() && s[i] == ',')
            ++i;
          else
            break;
        }
        ws();
        if (i >= s.size() || s[i] != ')')
          return err("expected ')'");
        ++i;
        if ((name == "T.max" || name == "T.min") && args.size() == 2)
          return primBinary(name == "T.max" ? PrimOp::Max : PrimOp::Min, args[0], args[1]);
        if ((name == "T.int64" || name == "T.int32") && args.size() == 1) {
          if (const auto *imm = llvm::dyn_cast<IntImmNode>(args[0].get()))
            return intImm(imm->value, name == "T.int64" ? DataType::int64() : DataType::int32());
          return args[0];
        }
        if ((name == "T.And" || name == "T.Or") && args.size() == 2)
          return primBinary(name == "T.And" ? PrimOp::And : PrimOp::Or, args[0], args[1]);
        if ((name == "T.floordiv" || name == "T.floormod") && args.size() == 2)
          return primBinary(name == "T.floordiv" ? PrimOp::FloorDiv : PrimOp::FloorMod, args[0],
                            args[1]);
        if (name == "T.Not" && args.size() == 1)
          return PrimExpr(make<PrimNotNode>(args[0]));
        if ((name == "T.if_then_else" || name == "T.Select") && args.size() == 3)
          return PrimExpr(make<PrimSelectNode>(args[0], args[1], args[2]));
        if (castTo && args.size() == 1)
          return PrimExpr(make<PrimCastNode>(*castTo, args[0]));
        return diagError(at, "unsupported function '" + name + "' in a symbolic expression");
      }
      return p.primName(name, at, ctx);
    }
    return err(llvm::Twine("unexpected character '") + llvm::Twine(c) +
               "' in a symbolic expression");
  }
};

/// An int literal adopting the dtype of the other operand.
PrimExpr litLike(const PrimExpr &lit, const PrimExpr &other) {
  if (const auto *imm = llvm::dyn_cast<IntImmNode>(lit.get()))
    if (imm->dtype != other->dtype && other->dtype.isInt())
      return intImm(imm->value, other->dtype);
  return lit;
}

} // namespace

llvm::Expected<PrimExpr> Parser::primString(uint32_t n, const SInfoCtx &ctx) {
  llvm::StringRef s = strValue(n);
  const char *base = nullptr;
  if (s.data() >= buf_.data() && s.data() + s.size() <= buf_.data() + buf_.size())
    base = s.data();
  PrimStringParser ps{*this, s, base, astLoc(n), ctx};
  auto e = ps.compare();
  if (!e)
    return e;
  ps.ws();
  if (ps.i != s.size())
    return ps.err("unexpected text in a symbolic expression");
  return e;
}

llvm::Expected<PrimExpr> Parser::toPrim(uint32_t n, const SInfoCtx &ctx) {
  if (depth_ > kMaxNestingDepth)
    return astError(n, "nesting too deep");
  struct Guard {
    unsigned &d;
    ~Guard() { --d; }
  } guard{++depth_};
  const Ast &a = ast_[n];
  switch (a.kind) {
  case AK::Int: {
    auto v = intValue(n);
    if (!v)
      return v.takeError();
    return intImm(*v, ctx.intLiteral);
  }
  case AK::Float: {
    auto v = floatValue(n);
    if (!v)
      return v.takeError();
    return floatImm(*v);
  }
  case AK::True:
  case AK::False:
    return boolImm(a.kind == AK::True);
  case AK::Str:
    if (!ctx.allowStrings)
      return astError(n, "string symbolic expressions are only allowed in a function "
                         "signature");
    return primString(n, ctx);
  case AK::Name:
    return primName(a.text, astLoc(n), ctx);
  case AK::Subscript:
    if (ctx.subscript)
      return ctx.subscript(n);
    return astError(n, "expected a symbolic expression");
  case AK::Unary:
    return primUnary(n, ctx);
  case AK::BinOp:
  case AK::BoolOp:
    return primBinOp(n, ctx);
  case AK::Call:
    return primCall(n, ctx);
  default:
    return astError(n, "expected a symbolic expression");
  }
}

llvm::Expected<PrimExpr> Parser::primUnary(uint32_t n, const SInfoCtx &ctx) {
  const Ast &a = ast_[n];
  if (isIntLit(n)) {
    auto v = intValue(n);
    if (!v)
      return v.takeError();
    return intImm(*v, ctx.intLiteral);
  }
  auto e = toPrim(kid(n, 0), ctx);
  if (!e)
    return e;
  if (a.op == Tok::Name)
    return PrimExpr(make<PrimNotNode>(*e));
  if (a.op == Tok::Plus)
    return e;
  if (a.op != Tok::Minus)
    return astError(n, "unsupported operator in a symbolic expression");
  if (const auto *f = llvm::dyn_cast<FloatImmNode>(e->get()))
    return floatImm(-f->value, f->dtype);
  return primBinary(PrimOp::Mul, *e, intImm(-1, (*e)->dtype));
}

namespace {

/// The PrimOp of a binary operator token; None for an operator that has none.
llvm::Optional<PrimOp> primOpOf(Tok op) {
  switch (op) {
  case Tok::Plus:
    return PrimOp::Add;
  case Tok::Minus:
    return PrimOp::Sub;
  case Tok::Star:
    return PrimOp::Mul;
  case Tok::DoubleSlash:
    return PrimOp::FloorDiv;
  case Tok::Percent:
    return PrimOp::FloorMod;
  case Tok::EqEq:
    return PrimOp::EQ;
  case Tok::NotEq:
    return PrimOp::NE;
  case Tok::Less:
    return PrimOp::LT;
  case Tok::LessEq:
    return PrimOp::LE;
  case Tok::Greater:
    return PrimOp::GT;
  case Tok::GreaterEq:
    return PrimOp::GE;
  default:
    return llvm::None;
  }
}

/// The PrimOp of a `T.<name>(a, b)` call; None for other callees.
llvm::Optional<PrimOp> primCallOpOf(llvm::StringRef f) {
  return llvm::StringSwitch<llvm::Optional<PrimOp>>(f)
      .Case("T.max", PrimOp::Max)
      .Case("T.min", PrimOp::Min)
      .Case("T.floordiv", PrimOp::FloorDiv)
      .Case("T.floormod", PrimOp::FloorMod)
      .Case("T.And", PrimOp::And)
      .Case("T.Or", PrimOp::Or)
      .Default(llvm::None);
}

} // namespace

llvm::Expected<PrimExpr> Parser::primBinOp(uint32_t n, const SInfoCtx &ctx) {
  const Ast &a = ast_[n];
  auto l = toPrim(kid(n, 0), ctx);
  if (!l)
    return l;
  auto r = toPrim(kid(n, 1), ctx);
  if (!r)
    return r;
  PrimExpr x = litLike(*l, *r), y = litLike(*r, *l);
  if (a.kind == AK::BoolOp)
    return primBinary(a.text == "and" ? PrimOp::And : PrimOp::Or, x, y);
  llvm::Optional<PrimOp> op = primOpOf(a.op);
  if (!op)
    return astError(n, "unsupported operator in a symbolic expression");
  return primBinary(*op, x, y);
}

llvm::Expected<PrimExpr> Parser::primCall(uint32_t n, const SInfoCtx &ctx) {
  const Ast &callee = ast_[kid(n, 0)];
  CallParts c{n, callee.kind == AK::Name ? callee.text : llvm::StringRef(), {}, {}};
  callArgs(n, c.pos, c.kw);
  llvm::StringRef f = c.name;
  if (f.startswith("T.") && c.pos.size() == 1 && c.kw.empty())
    if (auto dt = DataType::parse(f.drop_front(2)))
      return primTyped(*dt, c.pos[0], ctx);
  if (llvm::Optional<PrimOp> op = primCallOpOf(f)) {
    if (c.pos.size() != 2)
      return astError(n, f + " takes two arguments");
    auto l = toPrim(c.pos[0], ctx);
    if (!l)
      return l;
    auto r = toPrim(c.pos[1], ctx);
    if (!r)
      return r;
    return primBinary(*op, litLike(*l, *r), litLike(*r, *l));
  }
  return primIntrinsic(c, ctx);
}

llvm::Expected<PrimExpr> Parser::primTyped(DataType dt, uint32_t v, const SInfoCtx &ctx) {
  if (isIntLit(v) || ast_[v].kind == AK::True || ast_[v].kind == AK::False) {
    auto iv = intValue(v);
    if (!iv)
      return iv.takeError();
    if (dt.isFloat())
      return floatImm(static_cast<double>(*iv), dt);
    return intImm(*iv, dt);
  }
  if (isNumLit(v) || ast_[v].kind == AK::Str) {
    auto fv = floatValue(v);
    if (!fv)
      return fv.takeError();
    return floatImm(*fv, dt);
  }
  auto e = toPrim(v, ctx);
  if (!e)
    return e;
  if ((*e)->dtype == dt)
    return e;
  return PrimExpr(make<PrimCastNode>(dt, *e));
}

llvm::Expected<PrimExpr> Parser::primIntrinsic(const CallParts &c, const SInfoCtx &ctx) {
  llvm::StringRef f = c.name;
  const auto &pos = c.pos;
  if (f == "T.Not" && pos.size() == 1) {
    auto e = toPrim(pos[0], ctx);
    if (!e)
      return e;
    return PrimExpr(make<PrimNotNode>(*e));
  }
  if ((f == "T.if_then_else" || f == "T.Select") && pos.size() == 3) {
    auto cond = toPrim(pos[0], ctx);
    if (!cond)
      return cond;
    auto t = toPrim(pos[1], ctx);
    if (!t)
      return t;
    auto e = toPrim(pos[2], ctx);
    if (!e)
      return e;
    return PrimExpr(make<PrimSelectNode>(*cond, *t, *e));
  }
  if ((f == "T.IntImm" || f == "T.FloatImm") && pos.size() == 2 && ast_[pos[0]].kind == AK::Str) {
    auto dt = DataType::parse(strValue(pos[0]));
    if (!dt || dt->isFloat() != (f == "T.FloatImm"))
      return astError(pos[0],
                      f == "T.IntImm" ? "expected an integer dtype" : "expected a float dtype");
    return primTyped(*dt, pos[1], ctx);
  }
  if (f == "T.Cast" && pos.size() == 2 && ast_[pos[0]].kind == AK::Str) {
    auto dt = DataType::parse(strValue(pos[0]));
    if (!dt)
      return astError(pos[0], "unknown dtype");
    auto e = toPrim(pos[1], ctx);
    if (!e)
      return e;
    return PrimExpr(make<PrimCastNode>(*dt, *e));
  }
  if (f == "T.ceildiv" && pos.size() == 2) {
    // TVM's tir.ceildiv: (a + b - 1) // b, unsimplified.
    auto a = toPrim(pos[0], ctx);
    if (!a)
      return a;
    auto b = toPrim(pos[1], ctx);
    if (!b)
      return b;
    PrimExpr l = litLike(*a, *b), r = litLike(*b, *a);
    PrimExpr num = primBinary(PrimOp::Sub, primBinary(PrimOp::Add, l, r), intImm(1, l->dtype));
    return primBinary(PrimOp::FloorDiv, num, r);
  }
  if (f.endswith(".astype") && pos.size() == 1 && ast_[pos[0]].kind == AK::Str) {
    // `n.astype("int64")` of a symbolic var: a cast unless the dtype is n's.
    auto dt = DataType::parse(strValue(pos[0]));
    if (!dt)
      return astError(pos[0], "unknown dtype");
    const Sym *s = lookup(f.drop_back(strlen(".astype")));
    if (!s || s->kind != Sym::Tir)
      return astError(c.call, "unsupported call in a symbolic expression");
    PrimExpr v(llvm::cast<PrimExprNode>(s->node.get()));
    if (v->dtype == *dt)
      return v;
    return PrimExpr(make<PrimCastNode>(*dt, v));
  }
  return astError(c.call, "unsupported call in a symbolic expression");
}

llvm::Expected<std::vector<PrimExpr>> Parser::primList(uint32_t n, const SInfoCtx &ctx) {
  const Ast &a = ast_[n];
  if (a.kind != AK::Tuple && a.kind != AK::List)
    return astError(n, "expected a list of dimensions");
  std::vector<PrimExpr> out;
  out.reserve(a.count);
  for (uint32_t i = 0; i < a.count; ++i) {
    auto e = toPrim(kid(n, i), ctx);
    if (!e)
      return e.takeError();
    out.push_back(std::move(*e));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Struct info
//===----------------------------------------------------------------------===//

VDevice Parser::resolveVDevice(llvm::StringRef spec) const {
  if (!mod_)
    return nullptr;
  std::vector<VDevice> all = mod_->vdevices();
  auto [kindName, rest] = spec.split(':');
  int64_t idx = 0;
  llvm::StringRef idxText = rest.split(':').first;
  if (!idxText.empty() && idxText.getAsInteger(10, idx))
    return nullptr;
  if (kindName == "vdevice")
    return idx >= 0 && static_cast<size_t>(idx) < all.size() ? all[idx] : nullptr;
  for (const VDevice &vd : all)
    if (vd->targetKind == kindName && idx-- == 0)
      return vd;
  return nullptr;
}

namespace {

enum class SK { Object, Tensor, DTensor, Shape, Prim, Tuple, Callable, None };

SK sinfoKind(llvm::StringRef name) {
  if (name == "R.Object" || name == "R.Any")
    return SK::Object;
  if (name == "R.Tensor")
    return SK::Tensor;
  if (name == "R.DTensor" || name == "R.dist.DTensor")
    return SK::DTensor;
  if (name == "R.Shape")
    return SK::Shape;
  if (name == "R.Prim")
    return SK::Prim;
  if (name == "R.Tuple")
    return SK::Tuple;
  if (name == "R.Callable")
    return SK::Callable;
  return SK::None;
}

} // namespace

llvm::Expected<StructInfo> Parser::toSInfo(uint32_t n, const SInfoCtx &ctx) {
  if (depth_ > kMaxNestingDepth)
    return astError(n, "nesting too deep");
  struct Guard {
    unsigned &d;
    ~Guard() { --d; }
  } guard{++depth_};
  const Ast &a = ast_[n];
  if (a.kind == AK::Name)
    return bareSInfo(n);
  if (a.kind != AK::Call || ast_[kid(n, 0)].kind != AK::Name)
    return astError(n, "expected struct info");
  CallParts c{n, ast_[kid(n, 0)].text, {}, {}};
  SK sk = sinfoKind(c.name);
  if (sk == SK::None)
    return astError(n, "expected struct info, got '" + c.name + "'");
  callArgs(n, c.pos, c.kw);
  switch (sk) {
  case SK::Object:
    if (!c.pos.empty() || !c.kw.empty())
      return astError(n, c.name + " takes no arguments");
    return objectSInfo();
  case SK::Tensor:
    return tensorSInfoCall(c, ctx);
  case SK::DTensor:
    return dtensorSInfoCall(c, ctx);
  case SK::Shape:
    return shapeSInfoCall(c, ctx);
  case SK::Prim:
    return primSInfoCall(c, ctx);
  case SK::Tuple:
    return tupleSInfoCall(c, ctx);
  case SK::Callable:
    return callableSInfoCall(c, ctx);
  case SK::None:
    break;
  }
  return astError(n, "expected struct info");
}

llvm::Expected<StructInfo> Parser::bareSInfo(uint32_t n) {
  const Ast &a = ast_[n];
  switch (sinfoKind(a.text)) {
  case SK::Object:
    return objectSInfo();
  case SK::Tensor:
    return tensorSInfoNDim(-1, DataType::voidType());
  case SK::Shape:
    return shapeSInfoNDim(-1);
  case SK::Tuple:
    return voidSInfo();
  case SK::Callable:
    return StructInfo(make<FuncSInfoNode>(llvm::None, objectSInfo(), false));
  case SK::Prim:
    return astError(n, "R.Prim needs a dtype or a value");
  case SK::DTensor:
    return astError(n, "R.DTensor needs a device mesh and a placement");
  case SK::None:
    break;
  }
  // `x.struct_info`: a var's struct info, as TVM's tests pass it to
  // sinfo_args= and out_sinfo=.
  if (a.text.endswith(".struct_info")) {
    llvm::StringRef var = a.text.drop_back(llvm::StringRef(".struct_info").size());
    const Sym *s = lookup(var);
    if (s && s->kind == Sym::RelaxVar) {
      if (const StructInfo &sinfo = llvm::cast<VarNode>(s->node.get())->sinfo)
        return sinfo;
    }
    return astError(n, "'" + var + "' is not a Relax var, so it has no struct_info");
  }
  return astError(n, "expected struct info, got '" + a.text + "'");
}

int64_t Parser::kwArg(const CallParts &c, llvm::StringRef key) const {
  for (uint32_t x : c.kw)
    if (ast_[x].text == key)
      return kid(x, 0);
  return -1;
}

llvm::Error Parser::checkKeywords(const CallParts &c,
                                  std::initializer_list<llvm::StringRef> allowed) const {
  for (uint32_t x : c.kw) {
    bool ok = false;
    for (llvm::StringRef k : allowed)
      ok |= ast_[x].text == k;
    if (!ok)
      return astError(x, c.name + " got an unexpected keyword argument '" + ast_[x].text + "'");
  }
  return llvm::Error::success();
}

llvm::Expected<DataType> Parser::dtypeArg(int64_t node) {
  if (node < 0)
    return DataType::voidType();
  auto v = toAttr(static_cast<uint32_t>(node), AttrKind::DType, false);
  if (!v)
    return v.takeError();
  return v->getDType();
}

llvm::Expected<int> Parser::ndimArg(int64_t node) {
  if (node < 0)
    return -1;
  auto v = intValue(static_cast<uint32_t>(node));
  if (!v)
    return v.takeError();
  if (*v < -1 || *v > 1024)
    return astError(static_cast<uint32_t>(node), "ndim out of range");
  return static_cast<int>(*v);
}

llvm::Expected<StructInfo> Parser::tensorSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (auto err = checkKeywords(c, {"shape", "dtype", "vdevice", "ndim"}))
    return err;
  const auto &pos = c.pos;
  if (pos.size() > 3)
    return astError(pos[3], "R.Tensor takes at most three positional arguments");
  int64_t shapeN = kwArg(c, "shape"), dtypeN = kwArg(c, "dtype"), vdevN = kwArg(c, "vdevice"),
          ndimN = kwArg(c, "ndim");
  size_t pi = 0;
  if (pi < pos.size() && ast_[pos[pi]].kind == AK::Str && shapeN < 0 && dtypeN < 0) {
    dtypeN = pos[pi++]; // R.Tensor("float32")
  } else if (pi < pos.size()) {
    if (shapeN >= 0)
      return astError(pos[pi], "R.Tensor got multiple values for 'shape'");
    shapeN = pos[pi++];
  }
  if (pi < pos.size()) {
    if (dtypeN >= 0)
      return astError(pos[pi], "R.Tensor got multiple values for 'dtype'");
    dtypeN = pos[pi++];
  }
  if (pi < pos.size()) {
    if (vdevN >= 0)
      return astError(pos[pi], "R.Tensor got multiple values for 'vdevice'");
    vdevN = pos[pi++];
  }
  auto dt = dtypeArg(dtypeN);
  if (!dt)
    return dt.takeError();
  VDevice vd;
  if (vdevN >= 0 && ast_[vdevN].kind != AK::None) {
    if (ast_[vdevN].kind != AK::Str)
      return astError(static_cast<uint32_t>(vdevN), "vdevice must be a string");
    vd = resolveVDevice(strValue(static_cast<uint32_t>(vdevN)));
  }
  auto ndim = ndimArg(ndimN);
  if (!ndim)
    return ndim.takeError();
  if (shapeN < 0 || ast_[shapeN].kind == AK::None)
    return tensorSInfoNDim(*ndim, *dt, vd);
  if (ndimN >= 0)
    return astError(c.call, "R.Tensor cannot take both shape and ndim");
  return tensorShapeSInfo(static_cast<uint32_t>(shapeN), *dt, vd, ctx);
}

llvm::Expected<StructInfo> Parser::tensorShapeSInfo(uint32_t shape, DataType dt, VDevice vd,
                                                    const SInfoCtx &ctx) {
  const Ast &s = ast_[shape];
  if (s.kind == AK::Tuple || s.kind == AK::List) {
    auto dims = primList(shape, ctx);
    if (!dims)
      return dims.takeError();
    return tensorSInfo(std::move(*dims), dt, vd);
  }
  auto e = toExpr(shape);
  if (!e)
    return e.takeError();
  if (!llvm::isa<VarNode>(e->get()) || !llvm::isa_and_nonnull<ShapeSInfoNode>((*e)->sinfo.get()))
    return astError(shape, "R.Tensor shape must be a list of dims or a shape variable");
  return StructInfo(make<TensorSInfoNode>(*e, dt, -1, vd));
}

llvm::Expected<DeviceMesh> Parser::parseDeviceMesh(uint32_t call) {
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(call, pos, kw);
  if (pos.size() != 2 || !kw.empty())
    return astError(call, "R.device_mesh expects a shape and a device range or list of ids");
  auto ints = [&](uint32_t list) -> llvm::Expected<std::vector<int64_t>> {
    if (node(list).kind != AK::Tuple && node(list).kind != AK::List)
      return astError(list, "expected a list of integers");
    std::vector<int64_t> out;
    for (uint32_t i = 0; i < node(list).count; ++i) {
      auto v = intValue(kid(list, i));
      if (!v)
        return v.takeError();
      out.push_back(*v);
    }
    return out;
  };
  auto shape = ints(pos[0]);
  if (!shape)
    return shape.takeError();
  int64_t devices = 1;
  for (int64_t d : *shape) {
    if (d < 1 || d > (int64_t(1) << 20))
      return astError(pos[0], "a device mesh dimension must be positive");
    devices *= d;
    if (devices > (int64_t(1) << 20))
      return astError(pos[0], "device mesh too large");
  }
  std::vector<int64_t> ids;
  llvm::Optional<std::pair<int64_t, int64_t>> range;
  uint32_t r = pos[1];
  if (node(r).kind == AK::Call &&
      (node(kid(r, 0)).text == "I.Range" || node(kid(r, 0)).text == "R.Range")) {
    llvm::SmallVector<uint32_t, 2> rpos, rkw;
    callArgs(r, rpos, rkw);
    if (rpos.size() != 2 || !rkw.empty())
      return astError(r, "Range expects a begin and an end");
    auto begin = intValue(rpos[0]);
    if (!begin)
      return begin.takeError();
    auto end = intValue(rpos[1]);
    if (!end)
      return end.takeError();
    if (*end - *begin != devices)
      return astError(r, "the device range holds " + llvm::Twine(*end - *begin) +
                             " devices but the mesh shape needs " + llvm::Twine(devices));
    range = std::make_pair(*begin, *end);
    for (int64_t i = *begin; i < *end; ++i)
      ids.push_back(i);
  } else {
    auto list = ints(r);
    if (!list)
      return list.takeError();
    if (static_cast<int64_t>(list->size()) != devices)
      return astError(r, "the mesh has " + llvm::Twine(list->size()) +
                             " device ids but its shape needs " + llvm::Twine(devices));
    ids = std::move(*list);
  }
  return make<DeviceMeshNode>(std::move(*shape), std::move(ids), range);
}

llvm::Expected<DeviceMesh> Parser::meshArg(uint32_t n) {
  if (node(n).kind == AK::Call &&
      (node(kid(n, 0)).text == "R.device_mesh" || node(kid(n, 0)).text == "R.dist.device_mesh"))
    return parseDeviceMesh(n);
  if (node(n).kind != AK::Str)
    return astError(n, "a device mesh must be a string such as \"mesh[0]\" or R.device_mesh(...)");
  llvm::StringRef spec = strValue(n);
  auto [key, rest] = spec.split('[');
  uint64_t index = 0;
  if (rest.empty() || !rest.consume_back("]") || rest.getAsInteger(10, index))
    return astError(n, "a device mesh reference must read \"name[index]\", got \"" + spec + "\"");
  if (mod_)
    for (const auto &[k, infos] : mod_->globalInfos)
      if (k == key && index < infos.size())
        if (auto *mesh = llvm::dyn_cast_or_null<DeviceMeshNode>(infos[index].get()))
          return DeviceMesh(mesh);
  return astError(n, "no device mesh \"" + spec + "\" in the module's global infos");
}

llvm::Expected<Placement> Parser::placementArg(uint32_t n, const DeviceMeshNode &mesh, int ndim) {
  if (node(n).kind != AK::Str)
    return astError(n, "a placement must be a string such as \"S[0], R\"");
  llvm::Optional<Placement> p = parsePlacement(strValue(n));
  if (!p)
    return astError(n, "invalid placement \"" + strValue(n) + "\" (expected e.g. \"S[0], R\")");
  if (p->size() != mesh.shape.size())
    return astError(n, "placement \"" + strValue(n) + "\" has " + llvm::Twine(p->size()) +
                           " entries but the device mesh has " + llvm::Twine(mesh.shape.size()) +
                           " dimensions");
  for (int32_t axis : *p)
    if (axis != kReplica && ndim >= 0 && axis >= ndim)
      return astError(n, "placement \"" + strValue(n) + "\" shards axis " + llvm::Twine(axis) +
                             " of a tensor of " + llvm::Twine(ndim) + " dimensions");
  return *p;
}

llvm::Expected<StructInfo> Parser::dtensorSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (auto err = checkKeywords(c, {"shape", "dtype", "device_mesh", "placement", "ndim"}))
    return err;
  const auto &pos = c.pos;
  if (pos.size() > 4)
    return astError(pos[4], "R.DTensor takes at most four positional arguments");
  int64_t slot[4] = {kwArg(c, "shape"), kwArg(c, "dtype"), kwArg(c, "device_mesh"),
                     kwArg(c, "placement")};
  static const char *const names[4] = {"shape", "dtype", "device_mesh", "placement"};
  for (size_t i = 0; i < pos.size(); ++i) {
    if (slot[i] >= 0)
      return astError(pos[i], "R.DTensor got multiple values for '" + llvm::Twine(names[i]) + "'");
    slot[i] = pos[i];
  }
  if (slot[2] < 0 || slot[3] < 0)
    return astError(c.call, "R.DTensor needs a device mesh and a placement");
  auto dt = dtypeArg(slot[1]);
  if (!dt)
    return dt.takeError();
  auto ndim = ndimArg(kwArg(c, "ndim"));
  if (!ndim)
    return ndim.takeError();
  StructInfo view;
  if (slot[0] < 0 || node(slot[0]).kind == AK::None) {
    view = tensorSInfoNDim(*ndim, *dt);
  } else {
    if (kwArg(c, "ndim") >= 0)
      return astError(c.call, "R.DTensor cannot take both shape and ndim");
    auto t = tensorShapeSInfo(static_cast<uint32_t>(slot[0]), *dt, nullptr, ctx);
    if (!t)
      return t.takeError();
    view = *t;
  }
  auto mesh = meshArg(static_cast<uint32_t>(slot[2]));
  if (!mesh)
    return mesh.takeError();
  const auto *tensor = llvm::cast<TensorSInfoNode>(view.get());
  auto placement = placementArg(static_cast<uint32_t>(slot[3]), **mesh, tensor->ndim);
  if (!placement)
    return placement.takeError();
  return StructInfo(make<DTensorSInfoNode>(Ref<TensorSInfoNode>(tensor), std::move(*mesh),
                                           std::move(*placement)));
}

llvm::Expected<StructInfo> Parser::shapeSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (auto err = checkKeywords(c, {"values", "ndim"}))
    return err;
  int64_t valsN = c.pos.empty() ? kwArg(c, "values") : c.pos[0];
  int64_t ndimN = kwArg(c, "ndim");
  if (c.pos.size() > 1)
    return astError(c.pos[1], "R.Shape takes one positional argument");
  if (valsN >= 0 && ast_[valsN].kind != AK::None) {
    if (ndimN >= 0)
      return astError(c.call, "R.Shape cannot take both values and ndim");
    auto vals = primList(static_cast<uint32_t>(valsN), ctx);
    if (!vals)
      return vals.takeError();
    return shapeSInfo(std::move(*vals));
  }
  auto ndim = ndimArg(ndimN);
  if (!ndim)
    return ndim.takeError();
  return shapeSInfoNDim(*ndim);
}

llvm::Expected<StructInfo> Parser::primSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (auto err = checkKeywords(c, {"dtype", "value"}))
    return err;
  const auto &pos = c.pos;
  int64_t dtN = kwArg(c, "dtype"), valN = kwArg(c, "value");
  if (!pos.empty()) {
    if (dtN >= 0)
      return astError(pos[0], "R.Prim got multiple values for 'dtype'");
    dtN = pos[0];
  }
  if (pos.size() > 1) {
    if (valN >= 0)
      return astError(pos[1], "R.Prim got multiple values for 'value'");
    valN = pos[1];
  }
  if (pos.size() > 2)
    return astError(pos[2], "R.Prim takes at most two arguments");
  if (dtN < 0 && valN < 0)
    return astError(c.call, "R.Prim needs a dtype or a value");
  auto dt = dtypeArg(dtN);
  if (!dt)
    return dt.takeError();
  if (valN < 0)
    return primSInfo(*dt);
  PrimExpr v;
  if (isIntLit(static_cast<uint32_t>(valN))) {
    auto iv = intValue(static_cast<uint32_t>(valN));
    if (!iv)
      return iv.takeError();
    v = intImm(*iv, dt->isVoid() ? DataType::int64() : *dt);
  } else {
    auto pv = toPrim(static_cast<uint32_t>(valN), ctx);
    if (!pv)
      return pv.takeError();
    v = *pv;
  }
  return StructInfo(make<PrimSInfoNode>(dt->isVoid() ? v->dtype : *dt, v));
}

llvm::Expected<StructInfo> Parser::tupleSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (!c.kw.empty())
    return astError(c.kw[0], "R.Tuple takes no keyword arguments");
  std::vector<StructInfo> fields;
  llvm::SmallVector<uint32_t, 4> items(c.pos.begin(), c.pos.end());
  if (c.pos.size() == 1 && ast_[c.pos[0]].kind == AK::List) {
    items.clear();
    for (uint32_t i = 0; i < ast_[c.pos[0]].count; ++i)
      items.push_back(kid(c.pos[0], i));
  }
  for (uint32_t f : items) {
    auto s = toSInfo(f, ctx);
    if (!s)
      return s;
    fields.push_back(*s);
  }
  return tupleSInfo(std::move(fields));
}

llvm::Expected<StructInfo> Parser::callableSInfoCall(const CallParts &c, const SInfoCtx &ctx) {
  if (auto err = checkKeywords(c, {"params", "ret", "purity", "derive_func"}))
    return err;
  int64_t paramsN = kwArg(c, "params"), retN = kwArg(c, "ret"), purN = kwArg(c, "purity"),
          deriveN = kwArg(c, "derive_func");
  int64_t *slots[] = {&paramsN, &retN, &purN};
  if (c.pos.size() > 3)
    return astError(c.pos[3], "R.Callable takes at most three positional arguments");
  for (size_t i = 0; i < c.pos.size(); ++i) {
    if (*slots[i] >= 0)
      return astError(c.pos[i], "R.Callable got multiple values for an argument");
    *slots[i] = c.pos[i];
  }
  auto params = callableParams(paramsN, ctx);
  if (!params)
    return params.takeError();
  StructInfo ret = objectSInfo();
  if (retN >= 0 && ast_[retN].kind != AK::None) {
    auto s = toSInfo(static_cast<uint32_t>(retN), ctx);
    if (!s)
      return s;
    ret = *s;
  }
  bool purity = params->hasValue();
  if (purN >= 0 && ast_[purN].kind != AK::None) {
    const Ast &pa = ast_[purN];
    if (pa.kind != AK::True && pa.kind != AK::False)
      return astError(static_cast<uint32_t>(purN), "purity must be True or False");
    purity = pa.kind == AK::True;
  }
  std::string derive;
  if (deriveN >= 0 && ast_[deriveN].kind == AK::Str)
    derive = strValue(static_cast<uint32_t>(deriveN)).str();
  return StructInfo(make<FuncSInfoNode>(std::move(*params), ret, purity, std::move(derive)));
}

llvm::Expected<llvm::Optional<std::vector<StructInfo>>>
Parser::callableParams(int64_t paramsN, const SInfoCtx &ctx) {
  if (paramsN < 0 || ast_[paramsN].kind == AK::None)
    return llvm::Optional<std::vector<StructInfo>>();
  const Ast &pl = ast_[paramsN];
  if (pl.kind != AK::Tuple && pl.kind != AK::List)
    return astError(static_cast<uint32_t>(paramsN), "R.Callable params must be a list");
  std::vector<StructInfo> ps;
  for (uint32_t i = 0; i < pl.count; ++i) {
    auto s = toSInfo(kid(static_cast<uint32_t>(paramsN), i), ctx);
    if (!s)
      return s.takeError();
    ps.push_back(*s);
  }
  return llvm::Optional<std::vector<StructInfo>>(std::move(ps));
}
