//===- text/ParseExpr.cpp - Expression syntax trees and Relax values --------===//
//
// Python expression grammar (the subset TVMScript uses) into pooled Ast
// nodes, and evaluation of those nodes as Relax expressions with the generic
// conversion of TVM's op wrappers in `python/tvm/relax/op/` (int -> PrimValue, str -> StringImm,
// ...).
//
//===----------------------------------------------------------------------===//

#include "text/ParserImpl.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>

using namespace graft;
using namespace graft::parse;

namespace {

/// Bounds recursion in the expression grammar.
struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &d) : depth(d) { ++depth; }
  ~DepthGuard() { --depth; }
  bool tooDeep() const { return depth > kMaxNestingDepth; }
};

} // namespace

llvm::Error Parser::expect(Tok k, llvm::StringRef what) {
  if (consume(k))
    return llvm::Error::success();
  if (kind() == Tok::Eof || kind() == Tok::Newline || kind() == Tok::Indent ||
      kind() == Tok::Dedent)
    return errorHere("expected " + what + ", got " + tokName(kind()));
  return errorHere("expected " + what + ", got '" + curText() + "'");
}

//===----------------------------------------------------------------------===//
// Syntax trees
//===----------------------------------------------------------------------===//

namespace {

int binaryPrec(Tok k) {
  switch (k) {
  case Tok::Plus:
  case Tok::Minus:
    return 1;
  case Tok::Star:
  case Tok::Slash:
  case Tok::DoubleSlash:
  case Tok::Percent:
    return 2;
  default:
    return 0;
  }
}

bool isCompare(Tok k) {
  return k == Tok::Less || k == Tok::Greater || k == Tok::LessEq || k == Tok::GreaterEq ||
         k == Tok::EqEq || k == Tok::NotEq;
}

} // namespace

namespace graft {
namespace parse {

/// The recursive-descent expression grammar, as free functions over Parser.
struct ExprGrammar {
  Parser &p;

  uint32_t add(AK kind, uint32_t tok, llvm::ArrayRef<uint32_t> kids = {}, llvm::StringRef text = {},
               Tok op = Tok::Eof) {
    Ast a;
    a.kind = kind;
    a.tok = tok;
    a.op = op;
    a.text = text;
    a.first = static_cast<uint32_t>(p.kids_.size());
    a.count = static_cast<uint32_t>(kids.size());
    p.kids_.insert(p.kids_.end(), kids.begin(), kids.end());
    p.ast_.push_back(a);
    return static_cast<uint32_t>(p.ast_.size() - 1);
  }

  llvm::Expected<uint32_t> expr() {
    DepthGuard g(p.depth_);
    if (g.tooDeep())
      return p.errorHere("nesting too deep");
    if (p.isName("lambda"))
      return lambda();
    auto e = orExpr();
    if (!e || !p.isName("if"))
      return e;
    return conditional(*e);
  }

  /// `lambda i, j: body` (index maps): plain parameter names only.
  llvm::Expected<uint32_t> lambda() {
    uint32_t t = static_cast<uint32_t>(p.pos_++);
    llvm::SmallVector<uint32_t, 6> kids;
    while (!p.consume(Tok::Colon)) {
      if (p.kind() != Tok::Name || p.isName("lambda"))
        return p.errorHere("expected a parameter name or ':' in a lambda");
      kids.push_back(add(AK::Name, static_cast<uint32_t>(p.pos_), {}, p.curText()));
      ++p.pos_;
      if (p.consume(Tok::Colon))
        break;
      if (auto err = p.expect(Tok::Comma, "',' or ':' in a lambda"))
        return err;
    }
    auto body = expr();
    if (!body)
      return body;
    kids.push_back(*body);
    return add(AK::Lambda, t, kids);
  }

  /// `a if c else b` (v0.23's evaluator): a Python bool `c` picks a branch
  /// now; anything else becomes T.if_then_else(c, a, b), which only a TIR
  /// condition survives.
  llvm::Expected<uint32_t> conditional(uint32_t then) {
    uint32_t t = static_cast<uint32_t>(p.pos_++);
    auto cond = orExpr();
    if (!cond)
      return cond;
    if (!p.isName("else"))
      return p.errorHere("expected 'else' in a conditional expression");
    ++p.pos_;
    auto other = expr();
    if (!other)
      return other;
    AK ck = p.ast_[*cond].kind;
    if (ck == AK::True || ck == AK::False)
      return ck == AK::True ? then : *other;
    uint32_t callee = add(AK::Name, t, {}, "T.if_then_else");
    return add(AK::Call, t, {callee, *cond, then, *other});
  }

  llvm::Expected<uint32_t> orExpr() {
    auto lhs = andExpr();
    if (!lhs)
      return lhs;
    while (p.isName("or")) {
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto rhs = andExpr();
      if (!rhs)
        return rhs;
      *lhs = add(AK::BoolOp, t, {*lhs, *rhs}, "or");
    }
    return lhs;
  }

  llvm::Expected<uint32_t> andExpr() {
    auto lhs = notExpr();
    if (!lhs)
      return lhs;
    while (p.isName("and")) {
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto rhs = notExpr();
      if (!rhs)
        return rhs;
      *lhs = add(AK::BoolOp, t, {*lhs, *rhs}, "and");
    }
    return lhs;
  }

  llvm::Expected<uint32_t> notExpr() {
    if (p.isName("not")) {
      DepthGuard g(p.depth_);
      if (g.tooDeep())
        return p.errorHere("nesting too deep");
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto e = notExpr();
      if (!e)
        return e;
      return add(AK::Unary, t, {*e}, "not", Tok::Name);
    }
    return compare();
  }

  llvm::Expected<uint32_t> compare() {
    auto lhs = arith(1);
    if (!lhs)
      return lhs;
    // v0.23: a chain `a < b < c` means `(a < b) and (b < c)`.
    llvm::Optional<uint32_t> chain;
    uint32_t left = *lhs;
    while (isCompare(p.kind())) {
      Tok op = p.kind();
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto rhs = arith(1);
      if (!rhs)
        return rhs;
      uint32_t cmp = add(AK::BinOp, t, {left, *rhs}, {}, op);
      chain = chain ? add(AK::BoolOp, t, {*chain, cmp}, "and") : cmp;
      left = *rhs;
    }
    return chain ? *chain : *lhs;
  }

  llvm::Expected<uint32_t> arith(int minPrec) {
    auto lhs = unary();
    if (!lhs)
      return lhs;
    for (;;) {
      int prec = binaryPrec(p.kind());
      if (prec < minPrec || prec == 0)
        return lhs;
      Tok op = p.kind();
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto rhs = arith(prec + 1);
      if (!rhs)
        return rhs;
      *lhs = add(AK::BinOp, t, {*lhs, *rhs}, {}, op);
    }
  }

  llvm::Expected<uint32_t> unary() {
    Tok k = p.kind();
    if (k == Tok::Minus || k == Tok::Plus || k == Tok::Tilde) {
      DepthGuard g(p.depth_);
      if (g.tooDeep())
        return p.errorHere("nesting too deep");
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto e = unary();
      if (!e)
        return e;
      return add(AK::Unary, t, {*e}, {}, k);
    }
    return power();
  }

  llvm::Expected<uint32_t> power() {
    auto base = postfix();
    if (!base)
      return base;
    if (p.kind() == Tok::DoubleStar) {
      uint32_t t = static_cast<uint32_t>(p.pos_++);
      auto e = unary();
      if (!e)
        return e;
      return add(AK::BinOp, t, {*base, *e}, {}, Tok::DoubleStar);
    }
    return base;
  }

  llvm::Expected<uint32_t> postfix() {
    auto e = atom();
    if (!e)
      return e;
    for (;;) {
      if (p.kind() == Tok::LParen) {
        uint32_t t = static_cast<uint32_t>(p.pos_++);
        relaxModuleSpelling(*e);
        llvm::SmallVector<uint32_t, 8> kids{*e};
        if (auto err = callArgs(kids))
          return err;
        *e = constructorCall(t, kids);
      } else if (p.kind() == Tok::LBracket) {
        uint32_t t = static_cast<uint32_t>(p.pos_++);
        auto idx = subscriptItems();
        if (!idx)
          return idx;
        if (auto err = p.expect(Tok::RBracket, "']'"))
          return err;
        *e = add(AK::Subscript, t, {*e, *idx});
      } else if (p.kind() == Tok::Dot) {
        ++p.pos_;
        if (p.kind() != Tok::Name)
          return p.errorHere("expected a name after '.'");
        uint32_t nameTok = static_cast<uint32_t>(p.pos_++);
        Ast &base = p.ast_[*e];
        const Token &bt = p.tok(base.tok);
        const Token &nt = p.tok(nameTok);
        // Extend a dotted path in place when the text is contiguous.
        if (base.kind == AK::Name &&
            base.text.data() + base.text.size() + 1 == p.buf_.data() + nt.offset) {
          base.text = llvm::StringRef(base.text.data(), base.text.size() + 1 + nt.length);
        } else if (base.kind == AK::Name) {
          p.strings_.push_back((base.text + "." + p.text(nameTok)).str());
          base.text = p.strings_.back();
        } else {
          *e = add(AK::Attr, nameTok, {*e}, p.text(nameTok));
        }
        (void)bt;
      } else {
        relaxModuleSpelling(*e);
        return e;
      }
    }
  }

  /// The index of a subscript: one item, or a Tuple of several; an item is
  /// an expression or a slice `a:b` (TIR's buffer regions).
  llvm::Expected<uint32_t> subscriptItems() {
    uint32_t t = static_cast<uint32_t>(p.pos_);
    llvm::SmallVector<uint32_t, 4> kids;
    bool comma = false;
    for (;;) {
      uint32_t it = static_cast<uint32_t>(p.pos_);
      llvm::Optional<uint32_t> lo;
      if (p.kind() != Tok::Colon) {
        auto e = expr();
        if (!e)
          return e;
        lo = *e;
      }
      if (p.consume(Tok::Colon)) {
        uint32_t none = add(AK::None, it, {});
        uint32_t hi = none;
        if (p.kind() != Tok::Comma && p.kind() != Tok::RBracket) {
          auto e = expr();
          if (!e)
            return e;
          hi = *e;
        }
        kids.push_back(add(AK::Slice, it, {lo ? *lo : none, hi}));
      } else {
        kids.push_back(*lo);
      }
      if (!p.consume(Tok::Comma))
        break;
      comma = true;
      if (p.kind() == Tok::RBracket)
        break;
    }
    return kids.size() == 1 && !comma ? kids[0] : add(AK::Tuple, t, kids);
  }

  /// A call; the Relax node constructors TVM's tests call through `R`
  /// become their script forms: `R.ShapeExpr([..])` is `R.shape([..])`,
  /// `R.TupleGetItem(t, i)` is `t[i]`.
  uint32_t constructorCall(uint32_t t, llvm::ArrayRef<uint32_t> kids) {
    Ast &callee = p.ast_[kids[0]];
    bool positional =
        llvm::none_of(kids.drop_front(), [&](uint32_t k) { return p.ast_[k].kind == AK::Keyword; });
    if (callee.kind == AK::Name && !p.lookup("R") && positional) {
      if (callee.text == "R.ShapeExpr" && kids.size() == 2)
        callee.text = "R.shape";
      else if (callee.text == "R.TupleGetItem" && kids.size() == 3)
        return add(AK::Subscript, t, {kids[1], kids[2]});
    }
    return add(AK::Call, t, kids);
  }

  /// TVM's tests also call ops through the Python module: `relax.const`,
  /// `relax.call_tir`, `relax.op.nn.relu`. They name the same functions as
  /// `R.const`, `R.call_tir`, `R.nn.relu`, which is how they print.
  void relaxModuleSpelling(uint32_t e) {
    Ast &a = p.ast_[e];
    if (a.kind != AK::Name || !a.text.startswith("relax.") || p.lookup("relax"))
      return;
    llvm::StringRef rest = a.text.drop_front(6);
    if (rest.startswith("op.") && rest.size() > 3)
      rest = rest.drop_front(3);
    if (rest.empty())
      return;
    p.strings_.push_back(("R." + rest).str());
    a.text = p.strings_.back();
  }

  /// After '(' of a call: positional args, then keyword args.
  llvm::Error callArgs(llvm::SmallVectorImpl<uint32_t> &kids) {
    while (!p.consume(Tok::RParen)) {
      if (p.kind() == Tok::Star || p.kind() == Tok::DoubleStar)
        return p.errorHere("starred arguments are not supported");
      if (p.kind() == Tok::Name && p.peekKind(1) == Tok::Assign) {
        uint32_t t = static_cast<uint32_t>(p.pos_);
        llvm::StringRef name = p.curText();
        p.pos_ += 2;
        auto v = expr();
        if (!v)
          return v.takeError();
        kids.push_back(add(AK::Keyword, t, {*v}, name));
      } else {
        auto v = expr();
        if (!v)
          return v.takeError();
        kids.push_back(*v);
      }
      if (p.consume(Tok::RParen))
        break;
      if (auto err = p.expect(Tok::Comma, "',' or ')'"))
        return err;
    }
    return llvm::Error::success();
  }

  /// Comma-separated items up to `close`; sets `sawComma`.
  llvm::Error items(Tok close, llvm::StringRef closeName, llvm::SmallVectorImpl<uint32_t> &out,
                    bool &sawComma, bool dict) {
    sawComma = false;
    while (!p.consume(close)) {
      auto v = expr();
      if (!v)
        return v.takeError();
      out.push_back(*v);
      if (dict) {
        if (auto err = p.expect(Tok::Colon, "':'"))
          return err;
        auto val = expr();
        if (!val)
          return val.takeError();
        out.push_back(*val);
      }
      if (p.consume(close))
        break;
      if (auto err = p.expect(Tok::Comma, ("',' or " + closeName).str()))
        return err;
      sawComma = true;
    }
    return llvm::Error::success();
  }

  llvm::Expected<uint32_t> atom() {
    uint32_t t = static_cast<uint32_t>(p.pos_);
    switch (p.kind()) {
    case Tok::Name: {
      llvm::StringRef s = p.curText();
      ++p.pos_;
      if (s == "True")
        return add(AK::True, t);
      if (s == "False")
        return add(AK::False, t);
      if (s == "None")
        return add(AK::None, t);
      if (s == "lambda" || s == "yield" || s == "await")
        return p.error(t, "unsupported syntax '" + s + "'");
      return add(AK::Name, t, {}, s);
    }
    case Tok::Int:
      ++p.pos_;
      return add(AK::Int, t);
    case Tok::Float:
      ++p.pos_;
      return add(AK::Float, t);
    case Tok::String: {
      ++p.pos_;
      // Adjacent string literals concatenate.
      if (p.kind() != Tok::String)
        return add(AK::Str, t);
      std::string joined;
      std::string scratch;
      joined += decodeString(p.text(t), scratch);
      while (p.kind() == Tok::String) {
        joined += decodeString(p.curText(), scratch);
        ++p.pos_;
      }
      p.strings_.push_back(std::move(joined));
      return add(AK::Str, t, {}, p.strings_.back());
    }
    case Tok::LParen: {
      ++p.pos_;
      llvm::SmallVector<uint32_t, 8> kids;
      bool comma = false;
      if (auto err = items(Tok::RParen, "')'", kids, comma, false))
        return err;
      if (kids.size() == 1 && !comma)
        return kids[0];
      return add(AK::Tuple, t, kids);
    }
    case Tok::LBracket: {
      ++p.pos_;
      llvm::SmallVector<uint32_t, 8> kids;
      bool comma = false;
      if (auto err = items(Tok::RBracket, "']'", kids, comma, false))
        return err;
      return add(AK::List, t, kids);
    }
    case Tok::LBrace: {
      ++p.pos_;
      llvm::SmallVector<uint32_t, 8> kids;
      bool comma = false;
      if (auto err = items(Tok::RBrace, "'}'", kids, comma, true))
        return err;
      return add(AK::Dict, t, kids);
    }
    default:
      if (p.kind() == Tok::Eof || p.kind() == Tok::Newline || p.kind() == Tok::Indent ||
          p.kind() == Tok::Dedent)
        return p.errorHere("expected an expression, got " + tokName(p.kind()));
      return p.errorHere("expected an expression, got '" + p.curText() + "'");
    }
  }
};

} // namespace parse
} // namespace graft

llvm::Expected<uint32_t> Parser::parseExpr() { return ExprGrammar{*this}.expr(); }

llvm::Expected<uint32_t> Parser::parseExprList() {
  ExprGrammar g{*this};
  uint32_t t = static_cast<uint32_t>(pos_);
  auto first = g.expr();
  if (!first || kind() != Tok::Comma)
    return first;
  llvm::SmallVector<uint32_t, 4> kids{*first};
  while (consume(Tok::Comma)) {
    if (kind() == Tok::Newline || kind() == Tok::RBracket || kind() == Tok::Assign ||
        kind() == Tok::Colon)
      break;
    auto e = g.expr();
    if (!e)
      return e;
    kids.push_back(*e);
  }
  return g.add(AK::Tuple, t, kids);
}

//===----------------------------------------------------------------------===//
// Literal values
//===----------------------------------------------------------------------===//

llvm::StringRef Parser::strValue(uint32_t n) {
  const Ast &a = ast_[n];
  if (!a.text.empty() || a.kind != AK::Str)
    return a.text;
  std::string scratch;
  llvm::StringRef v = decodeString(text(a.tok), scratch);
  if (v.data() == scratch.data() && !scratch.empty()) {
    strings_.push_back(std::move(scratch));
    ast_[n].text = strings_.back();
    return ast_[n].text;
  }
  ast_[n].text = v;
  return v;
}

bool Parser::isIntLit(uint32_t n) const {
  const Ast &a = ast_[n];
  if (a.kind == AK::Int)
    return true;
  return a.kind == AK::Unary && (a.op == Tok::Minus || a.op == Tok::Plus) &&
         ast_[kid(n, 0)].kind == AK::Int;
}

bool Parser::isNumLit(uint32_t n) const {
  const Ast &a = ast_[n];
  if (a.kind == AK::Int || a.kind == AK::Float)
    return true;
  return a.kind == AK::Unary && (a.op == Tok::Minus || a.op == Tok::Plus) && isNumLit(kid(n, 0));
}

/// The magnitude of an integer literal token (underscores allowed, 0x/0o/0b
/// prefixes); None when it does not fit 64 bits.
static llvm::Optional<uint64_t> literalMagnitude(llvm::StringRef text) {
  std::string digits;
  for (char c : text)
    if (c != '_')
      digits.push_back(c);
  llvm::StringRef s = digits;
  unsigned radix = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    radix = 16, s = s.drop_front(2);
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
    radix = 8, s = s.drop_front(2);
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    radix = 2, s = s.drop_front(2);
  uint64_t v = 0;
  if (s.getAsInteger(radix, v))
    return llvm::None;
  return v;
}

llvm::Expected<int64_t> Parser::intValue(uint32_t n) {
  const Ast &a = ast_[n];
  if (a.kind == AK::Unary && (a.op == Tok::Minus || a.op == Tok::Plus)) {
    // -9223372036854775808 is INT64_MIN although its magnitude is not an int64.
    const Ast &k = ast_[kid(n, 0)];
    if (a.op == Tok::Minus && k.kind == AK::Int) {
      auto m = literalMagnitude(text(k.tok));
      if (m && *m == static_cast<uint64_t>(INT64_MAX) + 1)
        return INT64_MIN;
    }
    auto v = intValue(kid(n, 0));
    if (!v)
      return v;
    if (a.op == Tok::Plus)
      return *v;
    if (*v == INT64_MIN)
      return astError(n, "integer literal out of range");
    return -*v;
  }
  if (a.kind == AK::True || a.kind == AK::False)
    return a.kind == AK::True ? 1 : 0;
  if (a.kind != AK::Int)
    return astError(n, "expected an integer");
  // A synthesized literal (a device type code) carries its text.
  auto v = literalMagnitude(a.text.empty() ? text(a.tok) : a.text);
  if (!v || *v > static_cast<uint64_t>(INT64_MAX))
    return astError(n, "integer literal out of range");
  return static_cast<int64_t>(*v);
}

llvm::Expected<double> Parser::floatValue(uint32_t n) {
  const Ast &a = ast_[n];
  if (a.kind == AK::Unary && (a.op == Tok::Minus || a.op == Tok::Plus)) {
    auto v = floatValue(kid(n, 0));
    if (!v)
      return v;
    return a.op == Tok::Minus ? -*v : *v;
  }
  if (a.kind == AK::Int) {
    auto v = intValue(n);
    if (!v)
      return v.takeError();
    return static_cast<double>(*v);
  }
  if (a.kind == AK::True || a.kind == AK::False)
    return a.kind == AK::True ? 1.0 : 0.0;
  if (a.kind == AK::Str || a.kind == AK::Name) {
    llvm::StringRef s = a.kind == AK::Str ? strValue(n) : a.text;
    std::string low = s.lower();
    if (low == "inf" || low == "+inf" || low == "infinity")
      return HUGE_VAL;
    if (low == "-inf" || low == "-infinity")
      return -HUGE_VAL;
    if (low == "nan" || low == "+nan" || low == "-nan")
      return std::nan("");
    return astError(n, "expected a number, got '" + s + "'");
  }
  if (a.kind == AK::Call && ast_[kid(n, 0)].kind == AK::Name &&
      (ast_[kid(n, 0)].text == "float" || ast_[kid(n, 0)].text == "T.float32" ||
       ast_[kid(n, 0)].text == "T.float64" || ast_[kid(n, 0)].text == "T.float16") &&
      a.count == 2)
    return floatValue(kid(n, 1));
  if (a.kind != AK::Float)
    return astError(n, "expected a number");
  std::string digits;
  for (char c : text(a.tok))
    if (c != '_')
      digits.push_back(c);
  double v = 0;
  if (llvm::StringRef(digits).getAsDouble(v))
    return astError(n, "invalid float literal");
  return v;
}

void Parser::callArgs(uint32_t call, llvm::SmallVectorImpl<uint32_t> &pos,
                      llvm::SmallVectorImpl<uint32_t> &kw) const {
  const Ast &a = ast_[call];
  for (uint32_t i = 1; i < a.count; ++i) {
    uint32_t k = kid(call, i);
    (ast_[k].kind == AK::Keyword ? kw : pos).push_back(k);
  }
}

//===----------------------------------------------------------------------===//
// Classification and Relax values
//===----------------------------------------------------------------------===//

Parser::Cls Parser::classify(uint32_t n) const {
  const Ast &a = ast_[n];
  switch (a.kind) {
  case AK::Int:
  case AK::Float:
    return Cls::PyNum;
  case AK::True:
  case AK::False:
    return Cls::PyBool;
  case AK::Name: {
    if (a.text.startswith("T."))
      return Cls::Prim;
    const Sym *s = lookup(a.text);
    if (s && s->kind == Sym::Tir)
      return Cls::Prim;
    return Cls::Relax;
  }
  case AK::Call: {
    const Ast &callee = ast_[kid(n, 0)];
    if (callee.kind == AK::Name && callee.text.startswith("T."))
      return Cls::Prim;
    // `n.astype("int64")` of a symbolic var is a symbolic expression.
    if (callee.kind == AK::Name && callee.text.endswith(".astype"))
      if (const Sym *s = lookup(callee.text.drop_back(strlen(".astype"))))
        if (s->kind == Sym::Tir)
          return Cls::Prim;
    return Cls::Relax;
  }
  case AK::Unary:
    return classify(kid(n, 0));
  case AK::BinOp:
  case AK::BoolOp: {
    Cls l = classify(kid(n, 0)), r = classify(kid(n, 1));
    if (l == Cls::Relax || r == Cls::Relax)
      return Cls::Relax;
    if (l == Cls::Prim || r == Cls::Prim)
      return Cls::Prim;
    return Cls::PyNum;
  }
  default:
    return Cls::Relax;
  }
}

Expr Parser::externFunc(llvm::StringRef sym) { return make<ExternFuncNode>(sym.str()); }

llvm::Expected<Expr> Parser::relaxBinary(uint32_t n) {
  const Ast &a = ast_[n];
  const char *opName = nullptr;
  if (a.kind == AK::Unary) {
    if (a.op != Tok::Minus)
      return astError(n, "unsupported unary operator on a Relax expression");
    auto x = toExpr(kid(n, 0));
    if (!x)
      return x;
    return Expr(makeAt<CallNode>(astLoc(n), getOp("relax.negative"), std::vector<Expr>{*x}));
  }
  switch (a.op) {
  case Tok::Plus:
    opName = "relax.add";
    break;
  case Tok::Minus:
    opName = "relax.subtract";
    break;
  case Tok::Star:
    opName = "relax.multiply";
    break;
  case Tok::Slash:
    opName = "relax.divide";
    break;
  case Tok::DoubleSlash:
    opName = "relax.floor_divide";
    break;
  case Tok::DoubleStar:
    opName = "relax.power";
    break;
  case Tok::Percent:
    opName = "relax.mod";
    break;
  case Tok::Less:
    opName = "relax.less";
    break;
  case Tok::Greater:
    opName = "relax.greater";
    break;
  case Tok::LessEq:
    opName = "relax.less_equal";
    break;
  case Tok::GreaterEq:
    opName = "relax.greater_equal";
    break;
  default:
    return astError(n, "unsupported operator on Relax expressions");
  }
  Cls l = classify(kid(n, 0)), r = classify(kid(n, 1));
  if (l != Cls::Relax || r != Cls::Relax)
    return astError(n, "both operands of a Relax operator must be Relax expressions");
  auto x = toExpr(kid(n, 0));
  if (!x)
    return x;
  auto y = toExpr(kid(n, 1));
  if (!y)
    return y;
  return Expr(makeAt<CallNode>(astLoc(n), getOp(opName), std::vector<Expr>{*x, *y}));
}

namespace {

/// The relax.inspect op a tensor attribute reads (`A.ndim`, `A.dtype.bits`).
llvm::StringRef inspectOpOf(llvm::StringRef field) {
  return llvm::StringSwitch<llvm::StringRef>(field)
      .Case("dtype.type_code", "relax.inspect.tensor_dtype_code")
      .Case("dtype.bits", "relax.inspect.tensor_dtype_bits")
      .Case("dtype.lanes", "relax.inspect.tensor_dtype_lanes")
      .Case("ndim", "relax.inspect.tensor_ndim")
      .Case("byte_offset", "relax.inspect.tensor_byte_offset")
      .Case("elem_offset", "relax.inspect.tensor_elem_offset")
      .Default("");
}

} // namespace

llvm::Optional<Expr> Parser::tensorField(uint32_t n) {
  // `A.dtype.bits` and the like: A must be a Relax var; anything else stays
  // an undefined name.
  auto [head, field] = ast_[n].text.split('.');
  const Sym *s = lookup(head);
  llvm::StringRef op = inspectOpOf(field);
  if (!s || s->kind != Sym::RelaxVar || op.empty())
    return llvm::None;
  Expr var(llvm::cast<VarNode>(s->node.get()));
  return Expr(makeAt<CallNode>(astLoc(n), getOp(op), std::vector<Expr>{var}));
}

llvm::Optional<llvm::Expected<Expr>> Parser::tensorAxisField(uint32_t n) {
  // `A.shape[i]` / `A.strides[i]`, the axis any R.Prim value (an int is an
  // int64 R.prim_value, as TVM's Python wraps it).
  const Ast &base = ast_[kid(n, 0)];
  if (base.kind != AK::Name)
    return llvm::None;
  auto [head, field] = base.text.split('.');
  const Sym *s = lookup(head);
  if (!s || s->kind != Sym::RelaxVar || (field != "shape" && field != "strides"))
    return llvm::None;
  Expr var(llvm::cast<VarNode>(s->node.get()));
  llvm::Expected<Expr> axis = toExpr(kid(n, 1));
  if (!axis)
    return llvm::Expected<Expr>(axis.takeError());
  llvm::StringRef op =
      field == "shape" ? "relax.inspect.tensor_shape_i" : "relax.inspect.tensor_stride_i";
  return llvm::Expected<Expr>(
      Expr(makeAt<CallNode>(astLoc(n), getOp(op), std::vector<Expr>{var, *axis})));
}

llvm::Expected<Expr> Parser::toExpr(uint32_t n) {
  DepthGuard g(depth_);
  if (g.tooDeep())
    return astError(n, "nesting too deep");
  const Ast &a = ast_[n];
  switch (a.kind) {
  case AK::Int: {
    auto v = intValue(n);
    if (!v)
      return v.takeError();
    return primValueInt(*v);
  }
  case AK::Float: {
    auto v = floatValue(n);
    if (!v)
      return v.takeError();
    return primValue(floatImm(*v));
  }
  case AK::True:
  case AK::False:
    return primValueInt(a.kind == AK::True ? 1 : 0);
  case AK::Str:
    return stringImm(strValue(n).str());
  case AK::Tuple:
  case AK::List: {
    std::vector<Expr> fields;
    fields.reserve(a.count);
    for (uint32_t i = 0; i < a.count; ++i) {
      auto f = toExpr(kid(n, i));
      if (!f)
        return f;
      fields.push_back(std::move(*f));
    }
    return tupleExpr(std::move(fields));
  }
  case AK::Name: {
    if (const Sym *s = lookup(a.text)) {
      if (s->kind == Sym::RelaxVar)
        return Expr(llvm::cast<VarNode>(s->node.get()));
      if (s->kind == Sym::Tir)
        return primValue(PrimExpr(llvm::cast<TirVarNode>(s->node.get())));
      return astError(n, "a module cannot be used as a value");
    }
    if (a.text.startswith("T.") || a.text.startswith("R.") || a.text.contains('.')) {
      // `cls.f` / `Module.f` as a value: the GlobalVar.
      auto [head, rest] = a.text.split('.');
      const Sym *hs = lookup(head);
      if ((hs && hs->kind == Sym::ModuleAlias) || head == modName_) {
        auto it = gvars_.find(rest);
        if (it == gvars_.end())
          return astError(n, "module has no function '" + rest + "'");
        return Expr(it->second);
      }
      if (a.text == "R.Tuple" || a.text.startswith("R.Tensor"))
        return astError(n, "expected a value, got struct info " + a.text);
      if (llvm::Optional<Expr> field = tensorField(n))
        return *field;
    }
    return astError(n, "undefined name '" + a.text + "'");
  }
  case AK::Call:
    return toCall(n, nullptr);
  case AK::Subscript: {
    if (llvm::Optional<llvm::Expected<Expr>> field = tensorAxisField(n))
      return std::move(*field);
    auto base = toExpr(kid(n, 0));
    if (!base)
      return base;
    uint32_t idx = kid(n, 1);
    if (!isIntLit(idx))
      return astError(idx, "tuple index must be an integer literal");
    auto i = intValue(idx);
    if (!i)
      return i.takeError();
    if (*i < 0 || *i > INT32_MAX)
      return astError(idx, "tuple index out of range");
    auto item = make<TupleGetItemNode>(*base, static_cast<int>(*i));
    return Expr(item);
  }
  case AK::BinOp:
  case AK::Unary: {
    Cls c = classify(n);
    if (c == Cls::Relax)
      return relaxBinary(n);
    auto prim = toPrim(n, SInfoCtx{});
    if (!prim)
      return prim.takeError();
    return primValue(*prim);
  }
  case AK::None:
    return astError(n, "None is not a Relax value here");
  default:
    return astError(n, "unsupported expression");
  }
}
