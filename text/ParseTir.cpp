//===- text/ParseTir.cpp - PrimFunc bodies as TIR statement trees ----------===//
//
// Reads a PrimFunc body (after its leading T.func_attr / T.match_buffer /
// symbolic var declarations) into a tir::Body, normalized as TVM's parser
// (`python/tvm/script/parser/tir/`, `src/script/ir_builder/tir/`) and
// `src/tir/ir/script/script_complete.cc` normalize it:
//
//  - `for i, j in T.grid(a, b)` is two serial loops; `range(n)` and
//    `T.serial(n)` are serial loops from 0;
//  - `vi, vk = T.axis.remap("SR", [i, k])` is one `T.axis.spatial` /
//    `T.axis.reduce` per var over its loop's range;
//  - a block without `T.reads` / `T.writes` gets the regions TVM's access
//    detector (`src/tir/analysis/block_access_region_detector.cc`) finds;
//  - blocks below the function body sit in a root block;
//  - a Python literal next to a typed operand takes its type, `T.exp(x,
//    dtype="float32")` is `T.exp(x)` when x is float32, a docstring is dropped.
//
// What this reader does not understand (a form it does not know, a region
// whose inference needs TVM's interval arithmetic, nesting deeper than
// tir::kMaxDepth) makes it give up without consuming anything: the caller
// keeps the body as tokens, as before. A name the body uses but never
// defines is TVM's parse error "Undefined variable", reported once the
// whole body was understood.
//
//===----------------------------------------------------------------------===//

#include "text/ParserImpl.h"

#include "ir/TirBody.h"

#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace graft;
using namespace graft::parse;
using tir::Kind;
using tir::TNode;

namespace {

/// A node index, or kGiveUp: the body is kept as tokens.
constexpr int64_t kGiveUp = -1;

llvm::StringRef binarySpelling(Tok op) {
  switch (op) {
  case Tok::Plus:
    return "+";
  case Tok::Minus:
    return "-";
  case Tok::Star:
    return "*";
  case Tok::Slash:
    return "/";
  case Tok::DoubleSlash:
    return "//";
  case Tok::Percent:
    return "%";
  case Tok::DoubleStar:
    return "**";
  case Tok::Less:
    return "<";
  case Tok::Greater:
    return ">";
  case Tok::LessEq:
    return "<=";
  case Tok::GreaterEq:
    return ">=";
  case Tok::EqEq:
    return "==";
  case Tok::NotEq:
    return "!=";
  case Tok::Amp:
    return "&";
  case Tok::Pipe:
    return "|";
  case Tok::Caret:
    return "^";
  case Tok::ShiftL:
    return "<<";
  case Tok::ShiftR:
    return ">>";
  default:
    return "";
  }
}

bool isComparison(llvm::StringRef op) {
  return op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=" ||
         op == "and" || op == "or";
}

/// Intrinsics whose result has their first argument's type, so a `dtype=`
/// that says the same is redundant (TVM's `T.exp` and friends).
bool isUnaryMath(llvm::StringRef callee) {
  return llvm::StringSwitch<bool>(callee)
      .Cases("T.exp", "T.exp2", "T.exp10", "T.log", "T.log2", "T.log10", "T.log1p", true)
      .Cases("T.sqrt", "T.rsqrt", "T.tanh", "T.sigmoid", "T.erf", "T.sin", "T.cos", true)
      .Cases("T.tan", "T.sinh", "T.cosh", "T.asin", "T.acos", "T.atan", "T.fabs", true)
      .Cases("T.floor", "T.ceil", "T.round", "T.trunc", "T.nearbyint", "T.abs", true)
      .Cases("T.max", "T.min", "T.pow", "T.fmod", "T.atan2", "T.truncmod", "T.truncdiv", true)
      .Cases("T.floordiv", "T.floormod", "T.exp", true)
      .Default(false);
}

/// What `T.reads`-less block inference tracks while it walks a block.
struct Access {
  int32_t buffer;
  llvm::SmallVector<uint32_t, 4> region;
};

/// Whether the body stores into a parameter buffer (the PrimFunc is then
/// impure, as the token form decides).
bool writesParams(const tir::Body &b) {
  for (const TNode &n : b.nodes)
    if (n.kind == Kind::Store && static_cast<uint32_t>(n.def) < b.numSignatureDefs)
      return true;
  return false;
}

} // namespace

namespace graft {
namespace parse {

class TirReader {
public:
  TirReader(Parser &p, const PrimFuncNode &f, const PrimDecls &decls)
      : p_(p), f_(f), decls_(decls) {}

  /// The body, or None (give up; nothing reported). An Error only for an
  /// undefined name in a body read to its end.
  llvm::Expected<std::optional<tir::Body>> run();

private:
  /// Per block being read: its header statements.
  struct BlockCtx {
    llvm::SmallVector<uint32_t, 4> iterVars;
    int64_t where = -1, reads = -1, writes = -1, attr = -1, init = -1;
  };

  uint32_t add(TNode n) {
    b_.nodes.push_back(std::move(n));
    return static_cast<uint32_t>(b_.nodes.size() - 1);
  }
  uint32_t addInt(int64_t v, DataType dt) {
    TNode n;
    n.kind = Kind::Int;
    n.ival = v;
    n.dtype = dt;
    return add(std::move(n));
  }
  int32_t newDef(llvm::StringRef name, DataType dt, bool isBuffer = false, unsigned ndim = 0) {
    b_.defs.push_back(tir::Def{name.str(), dt, isBuffer, ndim});
    return static_cast<int32_t>(b_.defs.size() - 1);
  }
  void bind(llvm::StringRef name, int32_t def) {
    auto &stack = scope_[name];
    stack.push_back(def);
    undo_.push_back(&scope_.find(name)->second);
  }
  int32_t lookupDef(llvm::StringRef name) const {
    auto it = scope_.find(name);
    return it == scope_.end() || it->second.empty() ? -1 : it->second.back();
  }
  size_t mark() const { return undo_.size(); }
  void unwind(size_t m) {
    while (undo_.size() > m) {
      undo_.back()->pop_back();
      undo_.pop_back();
    }
  }

  void signatureDefs();
  /// The statements of an indented block through its Dedent: a Seq.
  int64_t suite(BlockCtx *block);
  int64_t statement(BlockCtx *block, llvm::SmallVectorImpl<uint32_t> &out);
  int64_t forStmt();
  int64_t withStmt();
  int64_t blockStmt(uint32_t call);
  int64_t ifStmt();
  int64_t whileStmt();
  int64_t simpleStmt(BlockCtx *block, llvm::SmallVectorImpl<uint32_t> &out);
  int64_t assignment(uint32_t lhs, uint32_t rhs, BlockCtx *block,
                     llvm::SmallVectorImpl<uint32_t> &out);
  int64_t axisRemap(uint32_t lhs, const CallParts &c, BlockCtx *block);
  int64_t axis(llvm::StringRef target, const CallParts &c, BlockCtx *block);
  int64_t blockPart(const CallParts &c, BlockCtx *block);
  /// `a, b` of a statement header's end (`:` then an indented block).
  bool headerEnd();
  /// The expression that starts at the cursor, or none where the reader
  /// gives up on it (the body then stays tokens).
  std::optional<uint32_t> headerExpr();
  /// `COND:` of an `if` or `while` header: the condition's node.
  int64_t condition();
  /// A statement sequence of KIDS (none: an `if` without `else`).
  int64_t seq(llvm::ArrayRef<uint32_t> kids);

  int64_t expr(uint32_t ast, unsigned depth = 0);
  int64_t nameExpr(uint32_t ast);
  int64_t subscript(uint32_t ast, unsigned depth);
  int64_t call(uint32_t ast, unsigned depth);
  int64_t binary(llvm::StringRef op, uint32_t lhs, uint32_t rhs);
  /// A literal of a Python number that takes an operand's type.
  void adoptType(uint32_t literal, DataType dt);
  int64_t region(uint32_t ast);

  // Block access inference (TVM's GetBlockAccessRegion).
  bool inferAccess(uint32_t block, int32_t firstInnerDef);
  uint32_t plus(uint32_t a, uint32_t b);
  bool sameExpr(uint32_t a, uint32_t b) const;
  bool uses(uint32_t e, const llvm::DenseMap<int32_t, std::pair<uint32_t, uint32_t>> &defs) const;
  uint32_t substitute(uint32_t e, const llvm::DenseMap<int32_t, uint32_t> &map);
  uint32_t rootWrap(uint32_t seq, llvm::SmallVectorImpl<std::pair<uint32_t, int32_t>> &pending);
  bool checkDepth() const;

  Parser &p_;
  const PrimFuncNode &f_;
  const PrimDecls &decls_;
  tir::Body b_;
  llvm::StringMap<llvm::SmallVector<int32_t, 1>> scope_;
  std::vector<llvm::SmallVector<int32_t, 1> *> undo_;
  /// Python number literals not yet given an operand's type.
  llvm::DenseSet<uint32_t> pyLiteral_;
  /// Loop var -> its (begin, end), for T.axis.remap.
  llvm::DenseMap<int32_t, std::pair<uint32_t, uint32_t>> loops_;
  /// Blocks whose reads/writes are inferred once the body is read, with the
  /// first def made inside them.
  llvm::SmallVector<std::pair<uint32_t, int32_t>, 8> pendingInference_;
  unsigned stmtDepth_ = 0;
  bool giveUp_ = false;
  std::optional<llvm::Error> undefined_;
};

} // namespace parse
} // namespace graft

//===----------------------------------------------------------------------===//
// Names and the signature
//===----------------------------------------------------------------------===//

void TirReader::signatureDefs() {
  for (const PrimParam &prm : f_.params) {
    bool buf = prm.kind == PrimParam::Kind::Buffer;
    DataType dt = prm.kind == PrimParam::Kind::Handle ? DataType(DataType::Handle, 64) : prm.dtype;
    bind(prm.name, newDef(prm.name, dt, buf, buf ? static_cast<unsigned>(prm.shape.size()) : 0));
  }
  for (const PrimParam &prm : f_.params)
    for (const PrimExpr &d : prm.shape)
      forEachTirVar(d.get(), [&](const TirVarNode *v) {
        if (lookupDef(v->name) < 0)
          bind(v->name, newDef(v->name, v->dtype));
      });
  b_.numSignatureDefs = static_cast<uint32_t>(b_.defs.size());
}

int64_t TirReader::nameExpr(uint32_t ast) {
  llvm::StringRef text = p_.node(ast).text;
  auto [root, rest] = text.split('.');
  int32_t def = lookupDef(root);
  TNode n;
  if (def >= 0) {
    if (rest.empty()) {
      n.kind = Kind::Var;
      n.def = def;
      n.dtype = b_.defs[def].dtype;
      return add(std::move(n));
    }
    if (!b_.defs[def].isBuffer || rest.contains('.'))
      return kGiveUp;
    n.kind = Kind::BufAttr;
    n.def = def;
    n.text = rest.str();
    return add(std::move(n));
  }
  if (!rest.empty()) {
    const Sym *alias = p_.lookup(root);
    bool module = root == p_.modName_ || (alias && alias->kind == Sym::ModuleAlias);
    if (!module || rest.contains('.') || !p_.funcNames_.count(rest))
      return kGiveUp;
    n.kind = Kind::Global;
    n.text = rest.str();
    return add(std::move(n));
  }
  if (!undefined_)
    undefined_.emplace(p_.astError(ast, "Undefined variable: " + text));
  n.kind = Kind::None;
  return add(std::move(n));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

void TirReader::adoptType(uint32_t literal, DataType dt) {
  if (!pyLiteral_.count(literal) || dt.isVoid() || dt.isBool() || dt.lanes != 1)
    return;
  TNode &n = b_.nodes[literal];
  if (n.kind == Kind::Int && dt.isFloat()) {
    n.kind = Kind::Float;
    n.fval = static_cast<double>(n.ival);
    n.ival = 0;
  }
  if ((n.kind == Kind::Int && dt.isIntegral()) || (n.kind == Kind::Float && dt.isFloat()))
    n.dtype = dt;
  pyLiteral_.erase(literal);
}

int64_t TirReader::binary(llvm::StringRef op, uint32_t lhs, uint32_t rhs) {
  if (pyLiteral_.count(lhs) && !pyLiteral_.count(rhs))
    adoptType(lhs, b_.nodes[rhs].dtype);
  else if (pyLiteral_.count(rhs) && !pyLiteral_.count(lhs))
    adoptType(rhs, b_.nodes[lhs].dtype);
  TNode n;
  n.kind = Kind::Binary;
  n.text = op.str();
  n.kids = {lhs, rhs};
  DataType dt = b_.nodes[lhs].dtype.isVoid() ? b_.nodes[rhs].dtype : b_.nodes[lhs].dtype;
  n.dtype = isComparison(op) ? DataType::boolType() : dt;
  return add(std::move(n));
}

int64_t TirReader::expr(uint32_t ast, unsigned depth) {
  if (depth > tir::kMaxDepth)
    return kGiveUp;
  const Ast &a = p_.node(ast);
  TNode n;
  switch (a.kind) {
  case AK::Int: {
    auto v = p_.intValue(ast);
    if (!v) {
      llvm::consumeError(v.takeError());
      return kGiveUp;
    }
    uint32_t i = addInt(*v, DataType::int32());
    pyLiteral_.insert(i);
    return i;
  }
  case AK::Float: {
    auto v = p_.floatValue(ast);
    if (!v) {
      llvm::consumeError(v.takeError());
      return kGiveUp;
    }
    n.kind = Kind::Float;
    n.fval = *v;
    n.dtype = DataType::float32();
    uint32_t i = add(std::move(n));
    pyLiteral_.insert(i);
    return i;
  }
  case AK::Str:
    n.kind = Kind::Str;
    n.text = p_.strValue(ast).str();
    return add(std::move(n));
  case AK::True:
  case AK::False:
    return addInt(a.kind == AK::True, DataType::boolType());
  case AK::None:
    n.kind = Kind::None;
    return add(std::move(n));
  case AK::Name:
    return nameExpr(ast);
  case AK::Subscript:
    return subscript(ast, depth);
  case AK::Call:
    return call(ast, depth);
  case AK::Keyword: {
    int64_t v = expr(p_.kid(ast, 0), depth + 1);
    if (v == kGiveUp)
      return kGiveUp;
    n.kind = Kind::Keyword;
    n.text = a.text.str();
    n.kids = {static_cast<uint32_t>(v)};
    return add(std::move(n));
  }
  case AK::Tuple:
  case AK::List:
  case AK::Dict:
    n.kind = a.kind == AK::Tuple ? Kind::Tuple : a.kind == AK::List ? Kind::List : Kind::Dict;
    for (uint32_t k = 0; k < a.count; ++k) {
      int64_t v = expr(p_.kid(ast, k), depth + 1);
      if (v == kGiveUp)
        return kGiveUp;
      n.kids.push_back(static_cast<uint32_t>(v));
    }
    return add(std::move(n));
  case AK::BinOp:
  case AK::BoolOp: {
    llvm::StringRef op = a.kind == AK::BoolOp ? a.text : binarySpelling(a.op);
    int64_t l = expr(p_.kid(ast, 0), depth + 1);
    int64_t r = l == kGiveUp ? kGiveUp : expr(p_.kid(ast, 1), depth + 1);
    if (op.empty() || r == kGiveUp)
      return kGiveUp;
    return binary(op, static_cast<uint32_t>(l), static_cast<uint32_t>(r));
  }
  case AK::Unary: {
    int64_t v = expr(p_.kid(ast, 0), depth + 1);
    if (v == kGiveUp)
      return kGiveUp;
    TNode &k = b_.nodes[v];
    if (a.op == Tok::Plus)
      return v;
    if (a.op == Tok::Minus && (k.kind == Kind::Int || k.kind == Kind::Float) && !k.dtype.isBool()) {
      // A negative literal, as TVM reads `-1` (and `T.float32(-1)`).
      if (k.kind == Kind::Int)
        k.ival = -k.ival;
      else
        k.fval = -k.fval;
      return v;
    }
    n.kind = Kind::Unary;
    n.text = a.op == Tok::Minus ? "-" : a.op == Tok::Tilde ? "~" : "not";
    n.dtype = n.text == "not" ? DataType::boolType() : k.dtype;
    n.kids = {static_cast<uint32_t>(v)};
    return add(std::move(n));
  }
  default:
    return kGiveUp;
  }
}

int64_t TirReader::subscript(uint32_t ast, unsigned depth) {
  uint32_t base = p_.kid(ast, 0), index = p_.kid(ast, 1);
  llvm::SmallVector<uint32_t, 4> items;
  if (p_.node(index).kind == AK::Tuple)
    for (uint32_t k = 0; k < p_.node(index).count; ++k)
      items.push_back(p_.kid(index, k));
  else
    items.push_back(index);
  TNode n;
  if (p_.node(base).kind != AK::Name)
    return kGiveUp;
  int64_t b = nameExpr(base);
  if (b == kGiveUp)
    return kGiveUp;
  const TNode &bn = b_.nodes[b];
  if (bn.kind == Kind::BufAttr && items.size() == 1) {
    // `A.shape[0]`.
    int64_t i = expr(items[0], depth + 1);
    if (i == kGiveUp)
      return kGiveUp;
    b_.nodes[b].kids.push_back(static_cast<uint32_t>(i));
    return b;
  }
  if (bn.kind == Kind::None) // Undefined; reported later.
    return b;
  if (bn.kind != Kind::Var || !b_.defs[bn.def].isBuffer)
    return kGiveUp;
  n.kind = Kind::Load;
  n.def = bn.def;
  n.dtype = b_.defs[bn.def].dtype;
  for (uint32_t item : items) {
    int64_t i = p_.node(item).kind == AK::Slice ? region(item) : expr(item, depth + 1);
    if (i == kGiveUp)
      return kGiveUp;
    n.kids.push_back(static_cast<uint32_t>(i));
  }
  return add(std::move(n));
}

/// `a:b` of a region.
int64_t TirReader::region(uint32_t ast) {
  uint32_t lo = p_.kid(ast, 0), hi = p_.kid(ast, 1);
  if (p_.node(hi).kind == AK::None)
    return kGiveUp;
  int64_t l = p_.node(lo).kind == AK::None ? int64_t(addInt(0, DataType::int32())) : expr(lo, 1);
  int64_t h = l == kGiveUp ? kGiveUp : expr(hi, 1);
  if (h == kGiveUp)
    return kGiveUp;
  if (p_.node(lo).kind == AK::None)
    pyLiteral_.insert(static_cast<uint32_t>(l));
  if (pyLiteral_.count(l))
    adoptType(static_cast<uint32_t>(l), b_.nodes[h].dtype);
  if (pyLiteral_.count(h))
    adoptType(static_cast<uint32_t>(h), b_.nodes[l].dtype);
  TNode n;
  n.kind = Kind::Slice;
  n.kids = {static_cast<uint32_t>(l), static_cast<uint32_t>(h)};
  return add(std::move(n));
}

int64_t TirReader::call(uint32_t ast, unsigned depth) {
  uint32_t callee = p_.kid(ast, 0);
  if (p_.node(callee).kind != AK::Name)
    return kGiveUp;
  llvm::StringRef name = p_.node(callee).text;
  CallParts c{ast, name, {}, {}};
  p_.callArgs(ast, c.pos, c.kw);
  TNode n;
  n.kind = Kind::Call;
  if (name.startswith("T.")) {
    n.text = name.str();
    // `T.float32(1)`, `T.int64(-2)`: a typed literal; `T.float32(x)` a cast.
    llvm::Optional<DataType> dt = DataType::parse(name.drop_front(2));
    if (dt && !dt->isHandle() && !dt->isVoid() && c.pos.size() == 1 && c.kw.empty()) {
      n.dtype = *dt;
      uint32_t arg = c.pos[0];
      if (p_.isNumLit(arg) || p_.node(arg).kind == AK::Str) {
        if (p_.node(arg).kind == AK::Str) {
          llvm::StringRef s = p_.strValue(arg);
          if (s != "inf" && s != "-inf" && s != "nan")
            return kGiveUp;
          TNode f;
          f.kind = Kind::Float;
          f.dtype = *dt;
          f.fval = s == "nan" ? std::nan("") : s == "inf" ? HUGE_VAL : -HUGE_VAL;
          return add(std::move(f));
        }
        if (dt->isBool()) {
          auto v = p_.intValue(arg);
          if (!v) {
            llvm::consumeError(v.takeError());
            return kGiveUp;
          }
          return addInt(*v != 0, *dt);
        }
        if (dt->isFloat()) {
          auto v = p_.floatValue(arg);
          if (!v) {
            llvm::consumeError(v.takeError());
            return kGiveUp;
          }
          TNode f;
          f.kind = Kind::Float;
          f.dtype = *dt;
          f.fval = *v;
          return add(std::move(f));
        }
        if (p_.isIntLit(arg)) {
          auto v = p_.intValue(arg);
          if (!v) {
            llvm::consumeError(v.takeError());
            return kGiveUp;
          }
          return addInt(*v, *dt);
        }
        return kGiveUp;
      }
    }
  } else {
    // A call of another function of the module.
    int64_t g = nameExpr(callee);
    if (g == kGiveUp || b_.nodes[g].kind != Kind::Global)
      return g == kGiveUp || b_.nodes[g].kind != Kind::None ? kGiveUp : g;
    n.kids.push_back(static_cast<uint32_t>(g));
  }
  for (uint32_t arg : c.pos) {
    int64_t v = expr(arg, depth + 1);
    if (v == kGiveUp)
      return kGiveUp;
    n.kids.push_back(static_cast<uint32_t>(v));
  }
  if (name == "T.Cast" && !c.pos.empty() && p_.node(c.pos[0]).kind == AK::Str)
    if (auto dt = DataType::parse(p_.strValue(c.pos[0])))
      n.dtype = *dt;
  size_t firstArg = n.text.empty() ? 1 : 0;
  if (isUnaryMath(name) && n.kids.size() > firstArg)
    n.dtype = b_.nodes[n.kids[firstArg]].dtype;
  if (name == "T.if_then_else" && n.kids.size() == 3)
    n.dtype = b_.nodes[n.kids[1]].dtype;
  for (uint32_t k : c.kw) {
    if (p_.node(k).text == "dtype" && p_.node(p_.kid(k, 0)).kind == AK::Str) {
      auto dt = DataType::parse(p_.strValue(p_.kid(k, 0)));
      if (!dt)
        return kGiveUp;
      // The intrinsic's own type: the keyword adds nothing (TVM prints
      // `T.exp(x)`).
      if (isUnaryMath(name) && n.dtype == *dt)
        continue;
      n.dtype = *dt;
    }
    int64_t v = expr(k, depth + 1);
    if (v == kGiveUp)
      return kGiveUp;
    n.kids.push_back(static_cast<uint32_t>(v));
  }
  return add(std::move(n));
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool TirReader::headerEnd() {
  return p_.consume(Tok::Colon) && p_.consume(Tok::Newline) && p_.consume(Tok::Indent);
}

int64_t TirReader::suite(BlockCtx *block) {
  if (++stmtDepth_ > 64)
    return kGiveUp;
  size_t m = mark();
  TNode seq;
  seq.kind = Kind::Seq;
  llvm::SmallVector<uint32_t, 8> stmts;
  while (p_.kind() != Tok::Dedent) {
    if (p_.kind() == Tok::Eof)
      return kGiveUp;
    if (statement(block, stmts) == kGiveUp)
      return kGiveUp;
  }
  ++p_.pos_;
  unwind(m);
  --stmtDepth_;
  seq.kids.assign(stmts.begin(), stmts.end());
  return add(std::move(seq));
}

int64_t TirReader::statement(BlockCtx *block, llvm::SmallVectorImpl<uint32_t> &out) {
  if (p_.kind() == Tok::String && p_.peekKind(1) == Tok::Newline) {
    p_.pos_ += 2; // A docstring: TVM's parser drops it.
    return 0;
  }
  int64_t s = kGiveUp;
  if (p_.isName("for"))
    s = forStmt();
  else if (p_.isName("with"))
    s = withStmt();
  else if (p_.isName("if"))
    s = ifStmt();
  else if (p_.isName("while"))
    s = whileStmt();
  else
    return simpleStmt(block, out);
  if (s == kGiveUp)
    return kGiveUp;
  // `with T.init():` belongs to the block around it.
  if (b_.nodes[s].kind == Kind::Init) {
    if (!block || block->init >= 0)
      return kGiveUp;
    block->init = s;
    return 0;
  }
  out.push_back(static_cast<uint32_t>(s));
  return s;
}

int64_t TirReader::forStmt() {
  ++p_.pos_;
  llvm::SmallVector<llvm::StringRef, 4> vars;
  while (p_.kind() == Tok::Name && !p_.isName("in")) {
    vars.push_back(p_.curText());
    ++p_.pos_;
    if (!p_.consume(Tok::Comma))
      break;
  }
  if (vars.empty() || !p_.isName("in"))
    return kGiveUp;
  ++p_.pos_;
  std::optional<uint32_t> it = headerExpr();
  if (!it)
    return kGiveUp;
  if (p_.node(*it).kind != AK::Call || !headerEnd())
    return kGiveUp;
  CallParts c{*it, p_.node(p_.kid(*it, 0)).text, {}, {}};
  p_.callArgs(*it, c.pos, c.kw);
  llvm::StringRef kind = llvm::StringSwitch<llvm::StringRef>(c.name)
                             .Cases("range", "T.serial", "T.grid", "serial")
                             .Case("T.parallel", "parallel")
                             .Case("T.vectorized", "vectorized")
                             .Case("T.unroll", "unroll")
                             .Case("T.thread_binding", "thread_binding")
                             .Default("");
  if (kind.empty())
    return kGiveUp;
  // (begin, end) per var.
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 4> ranges;
  llvm::SmallVector<uint32_t, 2> keywords;
  auto bound = [&](uint32_t ast) -> int64_t { return expr(ast, 1); };
  if (c.name == "T.grid") {
    if (c.pos.size() != vars.size() || !c.kw.empty())
      return kGiveUp;
    for (uint32_t a : c.pos) {
      int64_t e = bound(a);
      if (e == kGiveUp)
        return kGiveUp;
      uint32_t zero = addInt(0, DataType::int32());
      pyLiteral_.insert(zero);
      pyLiteral_.erase(static_cast<uint32_t>(e));
      adoptType(zero, b_.nodes[e].dtype);
      ranges.emplace_back(zero, static_cast<uint32_t>(e));
    }
  } else {
    if (vars.size() != 1 || c.pos.empty() || c.pos.size() > 2)
      return kGiveUp;
    int64_t lo = c.pos.size() == 2 ? bound(c.pos[0]) : int64_t(addInt(0, DataType::int32()));
    int64_t hi = lo == kGiveUp ? kGiveUp : bound(c.pos.back());
    if (hi == kGiveUp)
      return kGiveUp;
    if (c.pos.size() == 1)
      pyLiteral_.insert(static_cast<uint32_t>(lo));
    if (pyLiteral_.count(lo) && !pyLiteral_.count(hi))
      adoptType(static_cast<uint32_t>(lo), b_.nodes[hi].dtype);
    else if (pyLiteral_.count(hi))
      adoptType(static_cast<uint32_t>(hi), b_.nodes[lo].dtype);
    pyLiteral_.erase(static_cast<uint32_t>(lo));
    pyLiteral_.erase(static_cast<uint32_t>(hi));
    ranges.emplace_back(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
    for (uint32_t k : c.kw) {
      int64_t v = expr(k, 1);
      if (v == kGiveUp)
        return kGiveUp;
      keywords.push_back(static_cast<uint32_t>(v));
    }
  }
  size_t m = mark();
  llvm::SmallVector<uint32_t, 4> loops;
  for (size_t k = 0; k < vars.size(); ++k) {
    TNode f;
    f.kind = Kind::For;
    f.text = kind.str();
    DataType dt = b_.nodes[ranges[k].second].dtype;
    f.def = newDef(vars[k], dt.isVoid() ? DataType::int32() : dt);
    bind(vars[k], f.def);
    loops_[f.def] = ranges[k];
    f.kids = {ranges[k].first, ranges[k].second};
    loops.push_back(add(std::move(f)));
  }
  int64_t body = suite(nullptr);
  unwind(m);
  if (body == kGiveUp)
    return kGiveUp;
  // Innermost first: each loop's body is the next loop.
  uint32_t inner = static_cast<uint32_t>(body);
  for (size_t k = loops.size(); k-- > 0;) {
    TNode &f = b_.nodes[loops[k]];
    f.kids.push_back(inner);
    if (k == loops.size() - 1)
      f.kids.append(keywords.begin(), keywords.end());
    if (k == 0)
      break;
    TNode seq;
    seq.kind = Kind::Seq;
    seq.kids = {loops[k]};
    inner = add(std::move(seq));
  }
  return loops[0];
}

int64_t TirReader::withStmt() {
  ++p_.pos_;
  std::optional<uint32_t> e = headerExpr();
  if (!e || p_.node(*e).kind != AK::Call)
    return kGiveUp;
  uint32_t callAst = *e;
  llvm::StringRef callee = p_.node(p_.kid(callAst, 0)).text;
  llvm::StringRef asName;
  if (p_.isName("as")) {
    ++p_.pos_;
    if (p_.kind() != Tok::Name)
      return kGiveUp;
    asName = p_.curText();
    ++p_.pos_;
  }
  if (!headerEnd())
    return kGiveUp;
  if (callee == "T.block" || callee == "T.sblock") {
    if (!asName.empty())
      return kGiveUp;
    return blockStmt(callAst);
  }
  if (callee == "T.init") {
    if (!asName.empty() || p_.node(callAst).count != 1)
      return kGiveUp;
    int64_t body = suite(nullptr);
    if (body == kGiveUp)
      return kGiveUp;
    TNode init;
    init.kind = Kind::Init;
    init.kids = {static_cast<uint32_t>(body)};
    return add(std::move(init));
  }
  if (!callee.startswith("T."))
    return kGiveUp;
  int64_t c = expr(callAst, 1);
  if (c == kGiveUp)
    return kGiveUp;
  TNode w;
  w.kind = Kind::With;
  size_t m = mark();
  if (!asName.empty()) {
    // `T.allocate` and `T.decl_buffer` give a buffer or a pointer; the
    // rest (`T.launch_thread`, `T.LetStmt`, ...) a var.
    bool buf = callee == "T.decl_buffer" || callee == "T.alloc_buffer";
    DataType dt = b_.nodes[c].dtype.isVoid() ? DataType::int32() : b_.nodes[c].dtype;
    w.def = newDef(asName, buf ? DataType::float32() : dt, buf, 0);
    bind(asName, w.def);
  }
  int64_t body = suite(nullptr);
  unwind(m);
  if (body == kGiveUp)
    return kGiveUp;
  w.kids = {static_cast<uint32_t>(c), static_cast<uint32_t>(body)};
  return add(std::move(w));
}

int64_t TirReader::blockStmt(uint32_t callAst) {
  CallParts c{callAst, "T.block", {}, {}};
  p_.callArgs(callAst, c.pos, c.kw);
  if (!c.kw.empty() || c.pos.size() > 1 || (c.pos.size() == 1 && p_.node(c.pos[0]).kind != AK::Str))
    return kGiveUp;
  TNode blk;
  blk.kind = Kind::Block;
  blk.text = c.pos.empty() ? "" : p_.strValue(c.pos[0]).str();
  int32_t firstDef = static_cast<int32_t>(b_.defs.size());
  BlockCtx ctx;
  size_t m = mark();
  int64_t body = suite(&ctx);
  unwind(m);
  if (body == kGiveUp)
    return kGiveUp;
  blk.kids.assign(ctx.iterVars.begin(), ctx.iterVars.end());
  if (ctx.where >= 0)
    blk.kids.push_back(static_cast<uint32_t>(ctx.where));
  TNode empty;
  empty.kind = Kind::Reads;
  blk.kids.push_back(ctx.reads >= 0 ? static_cast<uint32_t>(ctx.reads) : add(empty));
  empty.kind = Kind::Writes;
  blk.kids.push_back(ctx.writes >= 0 ? static_cast<uint32_t>(ctx.writes) : add(empty));
  if (ctx.attr >= 0)
    blk.kids.push_back(static_cast<uint32_t>(ctx.attr));
  if (ctx.init >= 0)
    blk.kids.push_back(static_cast<uint32_t>(ctx.init));
  blk.kids.push_back(static_cast<uint32_t>(body));
  uint32_t i = add(std::move(blk));
  // Inferred once the body is read (the root block, whose regions TVM
  // leaves empty, is known only then): the first def made inside the block
  // times 4, plus which of reads (1) and writes (2) to infer.
  if (ctx.reads < 0 || ctx.writes < 0)
    pendingInference_.emplace_back(i, firstDef * 4 + (ctx.reads < 0 ? 1 : 0) +
                                          (ctx.writes < 0 ? 2 : 0));
  return i;
}

std::optional<uint32_t> TirReader::headerExpr() {
  p_.resetAst();
  auto e = p_.parseExpr();
  if (!e) {
    llvm::consumeError(e.takeError());
    return std::nullopt;
  }
  return *e;
}

int64_t TirReader::condition() {
  ++p_.pos_;
  std::optional<uint32_t> cond = headerExpr();
  if (!cond)
    return kGiveUp;
  int64_t c = expr(*cond, 1);
  return c == kGiveUp || !headerEnd() ? kGiveUp : c;
}

int64_t TirReader::seq(llvm::ArrayRef<uint32_t> kids) {
  TNode s;
  s.kind = Kind::Seq;
  s.kids.assign(kids.begin(), kids.end());
  return add(std::move(s));
}

int64_t TirReader::ifStmt() {
  int64_t c = condition();
  if (c == kGiveUp)
    return kGiveUp;
  int64_t then = suite(nullptr);
  if (then == kGiveUp)
    return kGiveUp;
  int64_t otherwise = kGiveUp;
  if (p_.isName("else")) {
    ++p_.pos_;
    if (!headerEnd())
      return kGiveUp;
    otherwise = suite(nullptr);
  } else if (p_.isName("elif")) {
    // `elif c:` is `else:` holding `if c:`.
    int64_t nested = ifStmt();
    if (nested == kGiveUp)
      return kGiveUp;
    otherwise = seq({static_cast<uint32_t>(nested)});
  } else {
    otherwise = seq({});
  }
  if (otherwise == kGiveUp)
    return kGiveUp;
  TNode s;
  s.kind = Kind::If;
  s.kids = {static_cast<uint32_t>(c), static_cast<uint32_t>(then),
            static_cast<uint32_t>(otherwise)};
  return add(std::move(s));
}

int64_t TirReader::whileStmt() {
  int64_t c = condition();
  if (c == kGiveUp)
    return kGiveUp;
  int64_t body = suite(nullptr);
  if (body == kGiveUp)
    return kGiveUp;
  TNode s;
  s.kind = Kind::While;
  s.kids = {static_cast<uint32_t>(c), static_cast<uint32_t>(body)};
  return add(std::move(s));
}

int64_t TirReader::simpleStmt(BlockCtx *block, llvm::SmallVectorImpl<uint32_t> &out) {
  bool isReturn = p_.isName("return"), isAssert = p_.isName("assert");
  if (isReturn || isAssert)
    ++p_.pos_;
  p_.resetAst();
  auto lhs = p_.parseExprList();
  if (!lhs) {
    llvm::consumeError(lhs.takeError());
    return kGiveUp;
  }
  TNode s;
  if (isReturn || isAssert) {
    if (p_.kind() != Tok::Newline)
      return kGiveUp;
    ++p_.pos_;
    llvm::SmallVector<uint32_t, 2> parts{*lhs};
    if (p_.node(*lhs).kind == AK::Tuple) {
      if (!isAssert || p_.node(*lhs).count != 2)
        return kGiveUp;
      parts = {p_.kid(*lhs, 0), p_.kid(*lhs, 1)};
    }
    s.kind = isReturn ? Kind::Return : Kind::Assert;
    for (uint32_t a : parts) {
      int64_t v = expr(a, 1);
      if (v == kGiveUp)
        return kGiveUp;
      s.kids.push_back(static_cast<uint32_t>(v));
    }
    if (isAssert && s.kids.size() != 2)
      return kGiveUp;
    out.push_back(add(std::move(s)));
    return 0;
  }
  if (p_.kind() == Tok::Colon) {
    // `x: T.int32 = value`.
    ++p_.pos_;
    if (p_.node(*lhs).kind != AK::Name)
      return kGiveUp;
    llvm::StringRef target = p_.node(*lhs).text;
    auto ann = p_.parseExpr();
    if (!ann) {
      llvm::consumeError(ann.takeError());
      return kGiveUp;
    }
    llvm::StringRef annName = p_.node(*ann).text;
    llvm::Optional<DataType> dt;
    if (p_.node(*ann).kind == AK::Name && annName.startswith("T."))
      dt = DataType::parse(annName.drop_front(2));
    if (!dt || !p_.consume(Tok::Assign) || target.contains('.'))
      return kGiveUp;
    auto rhs = p_.parseExpr();
    if (!rhs) {
      llvm::consumeError(rhs.takeError());
      return kGiveUp;
    }
    if (!p_.consume(Tok::Newline))
      return kGiveUp;
    int64_t v = expr(*rhs, 1);
    if (v == kGiveUp)
      return kGiveUp;
    adoptType(static_cast<uint32_t>(v), *dt);
    s.kind = Kind::Let;
    s.def = newDef(target, *dt);
    s.kids = {static_cast<uint32_t>(v)};
    bind(target, s.def);
    out.push_back(add(std::move(s)));
    return 0;
  }
  if (p_.consume(Tok::Assign)) {
    auto rhs = p_.parseExprList();
    if (!rhs) {
      llvm::consumeError(rhs.takeError());
      return kGiveUp;
    }
    if (!p_.consume(Tok::Newline))
      return kGiveUp;
    return assignment(*lhs, *rhs, block, out);
  }
  if (!p_.consume(Tok::Newline))
    return kGiveUp;
  const Ast &a = p_.node(*lhs);
  if (a.kind == AK::Str)
    return 0; // A docstring.
  if (a.kind != AK::Call)
    return kGiveUp;
  CallParts c{*lhs, p_.node(p_.kid(*lhs, 0)).text, {}, {}};
  p_.callArgs(*lhs, c.pos, c.kw);
  if (c.name == "T.reads" || c.name == "T.writes" || c.name == "T.where" ||
      c.name == "T.block_attr")
    return blockPart(c, block);
  bool evaluate = c.name == "T.evaluate", ret = c.name == "T.ret";
  uint32_t valueAst = *lhs;
  if (evaluate || ret) {
    if (c.pos.size() != 1 || !c.kw.empty())
      return kGiveUp;
    valueAst = c.pos[0];
  }
  int64_t v = expr(valueAst, 1);
  if (v == kGiveUp)
    return kGiveUp;
  s.kind = ret ? Kind::Return : Kind::Evaluate;
  s.kids = {static_cast<uint32_t>(v)};
  out.push_back(add(std::move(s)));
  return 0;
}

int64_t TirReader::assignment(uint32_t lhs, uint32_t rhs, BlockCtx *block,
                              llvm::SmallVectorImpl<uint32_t> &out) {
  const Ast &l = p_.node(lhs);
  const Ast &r = p_.node(rhs);
  TNode s;
  if (l.kind == AK::Subscript) {
    int64_t target = subscript(lhs, 1);
    if (target == kGiveUp)
      return kGiveUp;
    if (b_.nodes[target].kind == Kind::None)
      return 0; // Undefined buffer; reported later.
    if (b_.nodes[target].kind != Kind::Load)
      return kGiveUp;
    int64_t v = expr(rhs, 1);
    if (v == kGiveUp)
      return kGiveUp;
    adoptType(static_cast<uint32_t>(v), b_.defs[b_.nodes[target].def].dtype);
    s.kind = Kind::Store;
    s.def = b_.nodes[target].def;
    s.kids.push_back(static_cast<uint32_t>(v));
    s.kids.append(b_.nodes[target].kids.begin(), b_.nodes[target].kids.end());
    out.push_back(add(std::move(s)));
    return 0;
  }
  llvm::StringRef callee = r.kind == AK::Call ? p_.node(p_.kid(rhs, 0)).text : "";
  if (callee == "T.axis.remap")
    return axisRemap(lhs, CallParts{rhs, callee, {}, {}}, block);
  if (l.kind != AK::Name || l.text.contains('.'))
    return kGiveUp;
  llvm::StringRef target = l.text;
  CallParts c{rhs, callee, {}, {}};
  if (r.kind == AK::Call)
    p_.callArgs(rhs, c.pos, c.kw);
  if (callee.startswith("T.axis."))
    return axis(target, c, block);
  if ((callee == "T.int64" || callee == "T.int32") && c.pos.empty()) {
    s.kind = Kind::VarDecl;
    s.def = newDef(target, callee == "T.int64" ? DataType::int64() : DataType::int32());
    bind(target, s.def);
    out.push_back(add(std::move(s)));
    return 0;
  }
  int64_t v = expr(rhs, 1);
  if (v == kGiveUp)
    return kGiveUp;
  if (callee == "T.alloc_buffer" || callee == "T.decl_buffer" || callee == "T.Buffer") {
    // The buffer's dtype: second positional or `dtype=`, float32 otherwise.
    DataType dt = DataType::float32();
    int64_t dtAst = c.pos.size() > 1 ? int64_t(c.pos[1]) : p_.kwArg(c, "dtype");
    if (dtAst >= 0) {
      if (p_.node(dtAst).kind != AK::Str)
        return kGiveUp;
      auto parsed = DataType::parse(p_.strValue(static_cast<uint32_t>(dtAst)));
      if (!parsed)
        return kGiveUp;
      dt = *parsed;
    }
    unsigned ndim = 1;
    if (!c.pos.empty() &&
        (p_.node(c.pos[0]).kind == AK::Tuple || p_.node(c.pos[0]).kind == AK::List))
      ndim = p_.node(c.pos[0]).count;
    s.kind = Kind::BufferDecl;
    s.def = newDef(target, dt, true, ndim);
  } else {
    if (callee.startswith("T.") && (callee.contains("buffer") || callee == "T.allocate"))
      return kGiveUp;
    s.kind = Kind::Let;
    s.def = newDef(target, b_.nodes[v].dtype);
  }
  pyLiteral_.erase(static_cast<uint32_t>(v));
  s.kids = {static_cast<uint32_t>(v)};
  bind(target, s.def);
  out.push_back(add(std::move(s)));
  return 0;
}

int64_t TirReader::axis(llvm::StringRef target, const CallParts &c, BlockCtx *block) {
  llvm::StringRef kind = llvm::StringSwitch<llvm::StringRef>(c.name)
                             .Cases("T.axis.spatial", "T.axis.S", "spatial")
                             .Cases("T.axis.reduce", "T.axis.R", "reduce")
                             .Case("T.axis.scan", "scan")
                             .Case("T.axis.opaque", "opaque")
                             .Default("");
  if (!block || kind.empty() || c.pos.size() != 2)
    return kGiveUp;
  for (uint32_t k : c.kw)
    if (p_.node(k).text != "dtype")
      return kGiveUp;
  uint32_t dom = c.pos[0];
  int64_t lo, hi;
  if (p_.node(dom).kind == AK::Tuple && p_.node(dom).count == 2) {
    lo = expr(p_.kid(dom, 0), 1);
    hi = lo == kGiveUp ? kGiveUp : expr(p_.kid(dom, 1), 1);
  } else {
    lo = addInt(0, DataType::int32());
    pyLiteral_.insert(static_cast<uint32_t>(lo));
    hi = expr(dom, 1);
  }
  int64_t binding = hi == kGiveUp ? kGiveUp : expr(c.pos[1], 1);
  if (binding == kGiveUp)
    return kGiveUp;
  DataType dt = b_.nodes[binding].dtype;
  if (dt.isVoid())
    dt = b_.nodes[hi].dtype.isVoid() ? DataType::int32() : b_.nodes[hi].dtype;
  adoptType(static_cast<uint32_t>(lo), dt);
  adoptType(static_cast<uint32_t>(hi), dt);
  adoptType(static_cast<uint32_t>(binding), dt);
  TNode iv;
  iv.kind = Kind::IterVar;
  iv.text = kind.str();
  iv.def = newDef(target, dt);
  iv.kids = {static_cast<uint32_t>(lo), static_cast<uint32_t>(hi), static_cast<uint32_t>(binding)};
  bind(target, iv.def);
  block->iterVars.push_back(add(std::move(iv)));
  return 0;
}

int64_t TirReader::axisRemap(uint32_t lhs, const CallParts &cin, BlockCtx *block) {
  CallParts c = cin;
  p_.callArgs(c.call, c.pos, c.kw);
  if (!block || c.pos.size() != 2 || !c.kw.empty() || p_.node(c.pos[0]).kind != AK::Str)
    return kGiveUp;
  llvm::StringRef kinds = p_.strValue(c.pos[0]);
  uint32_t list = c.pos[1];
  if (p_.node(list).kind != AK::List && p_.node(list).kind != AK::Tuple)
    return kGiveUp;
  llvm::SmallVector<uint32_t, 4> targets;
  if (p_.node(lhs).kind == AK::Tuple)
    for (uint32_t k = 0; k < p_.node(lhs).count; ++k)
      targets.push_back(p_.kid(lhs, k));
  else
    targets.push_back(lhs);
  if (targets.size() != kinds.size() || targets.size() != p_.node(list).count)
    return kGiveUp;
  for (size_t k = 0; k < targets.size(); ++k) {
    const Ast &t = p_.node(targets[k]);
    uint32_t loopAst = p_.kid(list, static_cast<uint32_t>(k));
    if (t.kind != AK::Name || t.text.contains('.') || p_.node(loopAst).kind != AK::Name)
      return kGiveUp;
    int32_t loop = lookupDef(p_.node(loopAst).text);
    auto it = loops_.find(loop);
    char kc = kinds[k];
    if (loop < 0 || it == loops_.end() || (kc != 'S' && kc != 'R'))
      return kGiveUp;
    TNode ref;
    ref.kind = Kind::Var;
    ref.def = loop;
    ref.dtype = b_.defs[loop].dtype;
    TNode iv;
    iv.kind = Kind::IterVar;
    iv.text = kc == 'S' ? "spatial" : "reduce";
    iv.def = newDef(t.text, b_.defs[loop].dtype);
    iv.kids = {it->second.first, it->second.second, add(std::move(ref))};
    bind(t.text, iv.def);
    block->iterVars.push_back(add(std::move(iv)));
  }
  return 0;
}

int64_t TirReader::blockPart(const CallParts &c, BlockCtx *block) {
  if (!block || !c.kw.empty())
    return kGiveUp;
  TNode part;
  if (c.name == "T.reads" || c.name == "T.writes") {
    bool reads = c.name == "T.reads";
    if ((reads ? block->reads : block->writes) >= 0)
      return kGiveUp;
    part.kind = reads ? Kind::Reads : Kind::Writes;
    llvm::SmallVector<uint32_t, 4> items;
    for (uint32_t a : c.pos) {
      const Ast &an = p_.node(a);
      if (an.kind == AK::List || an.kind == AK::Tuple)
        for (uint32_t k = 0; k < an.count; ++k)
          items.push_back(p_.kid(a, k));
      else
        items.push_back(a);
    }
    for (uint32_t item : items) {
      if (p_.node(item).kind != AK::Subscript)
        return kGiveUp;
      int64_t r = subscript(item, 1);
      if (r == kGiveUp || b_.nodes[r].kind != Kind::Load)
        return kGiveUp;
      part.kids.push_back(static_cast<uint32_t>(r));
    }
    (reads ? block->reads : block->writes) = add(std::move(part));
    return 0;
  }
  if (c.pos.size() != 1)
    return kGiveUp;
  int64_t v = expr(c.pos[0], 1);
  if (v == kGiveUp)
    return kGiveUp;
  part.kind = c.name == "T.where" ? Kind::Where : Kind::BlockAttr;
  part.kids = {static_cast<uint32_t>(v)};
  int64_t &slot = c.name == "T.where" ? block->where : block->attr;
  if (slot >= 0)
    return kGiveUp;
  slot = add(std::move(part));
  return 0;
}

//===----------------------------------------------------------------------===//
// Access region inference
//===----------------------------------------------------------------------===//

uint32_t TirReader::plus(uint32_t a, uint32_t b) {
  const TNode &x = b_.nodes[a], &y = b_.nodes[b];
  if (x.kind == Kind::Int && y.kind == Kind::Int && x.dtype == y.dtype && !x.dtype.isBool())
    return addInt(x.ival + y.ival, x.dtype);
  if (x.kind == Kind::Int && x.ival == 0)
    return b;
  if (y.kind == Kind::Int && y.ival == 0)
    return a;
  TNode n;
  n.kind = Kind::Binary;
  n.text = "+";
  n.dtype = x.dtype;
  n.kids = {a, b};
  return add(std::move(n));
}

bool TirReader::sameExpr(uint32_t a, uint32_t b) const {
  std::vector<std::pair<uint32_t, uint32_t>> work{{a, b}};
  while (!work.empty()) {
    auto [x, y] = work.back();
    work.pop_back();
    const TNode &p = b_.nodes[x], &q = b_.nodes[y];
    if (p.kind != q.kind || p.dtype != q.dtype || p.ival != q.ival || p.text != q.text ||
        p.def != q.def || p.kids.size() != q.kids.size() || p.fval != q.fval)
      return false;
    for (size_t k = 0; k < p.kids.size(); ++k)
      work.emplace_back(p.kids[k], q.kids[k]);
  }
  return true;
}

bool TirReader::uses(uint32_t e,
                     const llvm::DenseMap<int32_t, std::pair<uint32_t, uint32_t>> &defs) const {
  std::vector<uint32_t> work{e};
  while (!work.empty()) {
    const TNode &x = b_.nodes[work.back()];
    work.pop_back();
    if (x.def >= 0 && defs.count(x.def))
      return true;
    work.insert(work.end(), x.kids.begin(), x.kids.end());
  }
  return false;
}

uint32_t TirReader::substitute(uint32_t e, const llvm::DenseMap<int32_t, uint32_t> &map) {
  const TNode &x = b_.nodes[e];
  if (x.kind == Kind::Var) {
    auto it = map.find(x.def);
    if (it != map.end())
      return it->second;
  }
  if (x.kids.empty())
    return e;
  // Depth is bounded: the regions' expressions are within kMaxDepth.
  llvm::SmallVector<uint32_t, 4> kids;
  bool changed = false;
  for (uint32_t k : x.kids) {
    kids.push_back(substitute(k, map));
    changed |= kids.back() != k;
  }
  if (!changed)
    return e;
  TNode copy = b_.nodes[e];
  copy.kids.assign(kids.begin(), kids.end());
  return add(std::move(copy));
}

bool TirReader::inferAccess(uint32_t blockIdx, int32_t code) {
  int32_t firstInner = code / 4;
  int which = code % 4;
  std::vector<Access> reads, writes;
  llvm::DenseMap<int32_t, std::pair<uint32_t, uint32_t>> dom;
  bool ok = true;
  unsigned conditional = 0;
  auto visible = [&](int32_t buf) { return buf < firstInner; };
  // One index's region: a point, or a loop var (plus an offset) relaxed over
  // its loop. Anything else needs TVM's interval arithmetic: give up.
  auto relax = [&](uint32_t e) -> int64_t {
    if (!uses(e, dom))
      return e;
    const TNode &x = b_.nodes[e];
    uint32_t var = e;
    int64_t offset = -1;
    if (x.kind == Kind::Binary && x.text == "+") {
      bool left = b_.nodes[x.kids[0]].kind == Kind::Var && dom.count(b_.nodes[x.kids[0]].def);
      var = left ? x.kids[0] : x.kids[1];
      offset = left ? x.kids[1] : x.kids[0];
      if (uses(static_cast<uint32_t>(offset), dom))
        return kGiveUp;
    }
    const TNode &v = b_.nodes[var];
    if (v.kind != Kind::Var || !dom.count(v.def) || conditional)
      return kGiveUp;
    auto [lo, hi] = dom[v.def];
    if (offset >= 0) {
      lo = plus(lo, static_cast<uint32_t>(offset));
      hi = plus(hi, static_cast<uint32_t>(offset));
    }
    TNode s;
    s.kind = Kind::Slice;
    s.kids = {lo, hi};
    return add(std::move(s));
  };
  auto update = [&](std::vector<Access> &list, int32_t buf, llvm::ArrayRef<uint32_t> idx) {
    if (!visible(buf))
      return;
    Access acc{buf, {}};
    for (uint32_t i : idx) {
      int64_t r = b_.nodes[i].kind == Kind::Slice ? int64_t(i) : relax(i);
      if (r == kGiveUp) {
        ok = false;
        return;
      }
      acc.region.push_back(static_cast<uint32_t>(r));
    }
    for (Access &old : list) {
      if (old.buffer != buf)
        continue;
      // Two different regions of one buffer: TVM takes their union.
      for (size_t k = 0; k < acc.region.size() && ok; ++k)
        ok = k < old.region.size() && sameExpr(old.region[k], acc.region[k]);
      return;
    }
    list.push_back(std::move(acc));
  };
  // Pre-order over the block's init and body (init first: it precedes the
  // body among the kids, and the stack pops the last pushed first).
  enum Tag : uint8_t { Visit, ExitLoop, EnterCond, ExitCond };
  struct Item {
    uint32_t node;
    Tag tag;
  };
  const TNode &blk = b_.nodes[blockIdx];
  std::vector<Item> work;
  for (size_t k = blk.kids.size(); k-- > 0;) {
    Kind pk = b_.nodes[blk.kids[k]].kind;
    if (pk == Kind::Seq || pk == Kind::Init)
      work.push_back({blk.kids[k], Visit});
  }
  std::vector<int32_t> innerLets;
  while (!work.empty() && ok) {
    Item it = work.back();
    work.pop_back();
    const TNode &x = b_.nodes[it.node];
    if (it.tag == ExitLoop) {
      dom.erase(x.def);
      continue;
    }
    if (it.tag == EnterCond || it.tag == ExitCond) {
      conditional += it.tag == EnterCond ? 1 : -1;
      continue;
    }
    switch (x.kind) {
    case Kind::For:
      dom[x.def] = {x.kids[0], x.kids[1]};
      work.push_back({it.node, ExitLoop});
      work.push_back({x.kids[2], Visit});
      continue;
    case Kind::If:
      // The condition, then both branches under it.
      work.push_back({it.node, ExitCond});
      work.push_back({x.kids[2], Visit});
      work.push_back({x.kids[1], Visit});
      work.push_back({it.node, EnterCond});
      work.push_back({x.kids[0], Visit});
      continue;
    case Kind::Block: {
      // A child block: its regions with its vars bound to their values.
      llvm::DenseMap<int32_t, uint32_t> bindMap;
      for (uint32_t k : x.kids)
        if (b_.nodes[k].kind == Kind::IterVar)
          bindMap[b_.nodes[k].def] = b_.nodes[k].kids[2];
      for (uint32_t k : x.kids) {
        const TNode &part = b_.nodes[k];
        if (part.kind != Kind::Reads && part.kind != Kind::Writes)
          continue;
        for (uint32_t r : part.kids) {
          const TNode &load = b_.nodes[r];
          llvm::SmallVector<uint32_t, 4> idx;
          for (uint32_t i : load.kids) {
            const TNode &ix = b_.nodes[i];
            if (ix.kind == Kind::Slice) {
              if (uses(ix.kids[0], dom) || uses(ix.kids[1], dom)) {
                ok = false;
                break;
              }
              TNode s = ix;
              s.kids = {substitute(ix.kids[0], bindMap), substitute(ix.kids[1], bindMap)};
              idx.push_back(add(std::move(s)));
            } else {
              idx.push_back(substitute(i, bindMap));
            }
          }
          if (ok)
            update(part.kind == Kind::Reads ? reads : writes, load.def, idx);
        }
      }
      continue;
    }
    case Kind::Store: {
      llvm::SmallVector<uint32_t, 4> idx(x.kids.begin() + 1, x.kids.end());
      update(writes, x.def, idx);
      for (size_t k = x.kids.size(); k-- > 0;)
        work.push_back({x.kids[k], Visit});
      continue;
    }
    case Kind::Load: {
      llvm::SmallVector<uint32_t, 4> idx(x.kids.begin(), x.kids.end());
      update(reads, x.def, idx);
      break;
    }
    case Kind::Let:
      innerLets.push_back(x.def);
      break;
    case Kind::Var:
    case Kind::BufAttr:
      // A buffer used as a pointer: TVM cannot infer its region either.
      if (b_.defs[x.def].isBuffer && visible(x.def))
        ok = false;
      break;
    case Kind::Call:
      if (x.text == "T.if_then_else" || x.text == "T.tvm_access_ptr")
        ok = false;
      break;
    case Kind::With:
    case Kind::While:
      ok = false;
      break;
    default:
      break;
    }
    for (size_t k = x.kids.size(); k-- > 0;)
      work.push_back({x.kids[k], Visit});
  }
  if (!ok)
    return false;
  // Regions reading a let var would need TVM's substitution.
  if (!innerLets.empty()) {
    llvm::DenseMap<int32_t, std::pair<uint32_t, uint32_t>> lets;
    for (int32_t d : innerLets)
      lets[d] = {0, 0};
    for (const auto *list : {&reads, &writes})
      for (const Access &acc : *list)
        for (uint32_t r : acc.region)
          if (uses(r, lets))
            return false;
  }
  bool hasInit = llvm::any_of(blk.kids, [&](uint32_t k) { return b_.nodes[k].kind == Kind::Init; });
  auto regions = [&](const std::vector<Access> &list, Kind kind, const std::vector<Access> *skip) {
    TNode part;
    part.kind = kind;
    for (const Access &acc : list) {
      if (skip && llvm::any_of(*skip, [&](const Access &w) { return w.buffer == acc.buffer; }))
        continue;
      TNode load;
      load.kind = Kind::Load;
      load.def = acc.buffer;
      load.dtype = b_.defs[acc.buffer].dtype;
      load.kids.assign(acc.region.begin(), acc.region.end());
      part.kids.push_back(add(std::move(load)));
    }
    return add(std::move(part));
  };
  uint32_t r = regions(reads, Kind::Reads, hasInit ? &writes : nullptr);
  uint32_t w = regions(writes, Kind::Writes, nullptr);
  for (uint32_t &k : b_.nodes[blockIdx].kids) {
    if (b_.nodes[k].kind == Kind::Reads && (which & 1))
      k = r;
    else if (b_.nodes[k].kind == Kind::Writes && (which & 2))
      k = w;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The whole body
//===----------------------------------------------------------------------===//

uint32_t TirReader::rootWrap(uint32_t seq,
                             llvm::SmallVectorImpl<std::pair<uint32_t, int32_t>> &pending) {
  // TVM's ScriptComplete: the body gets a root block when it holds blocks
  // (or root allocations) and is not itself a single block without vars.
  const TNode &top = b_.nodes[seq];
  if (top.kids.size() == 1 && b_.nodes[top.kids[0]].kind == Kind::Block) {
    const TNode &blk = b_.nodes[top.kids[0]];
    bool hasVars =
        llvm::any_of(blk.kids, [&](uint32_t k) { return b_.nodes[k].kind == Kind::IterVar; });
    if (!hasVars) {
      // The root block: TVM infers no regions for it.
      llvm::erase_if(pending, [&](const auto &e) { return e.first == top.kids[0]; });
      return seq;
    }
  }
  bool wrap = false;
  for (uint32_t k : top.kids)
    wrap |= b_.nodes[k].kind == Kind::BufferDecl &&
            b_.nodes[b_.nodes[k].kids[0]].text == "T.alloc_buffer";
  for (const TNode &n : b_.nodes)
    wrap |= n.kind == Kind::Block;
  if (!wrap)
    return seq;
  TNode empty;
  empty.kind = Kind::Reads;
  uint32_t reads = add(empty);
  empty.kind = Kind::Writes;
  uint32_t writes = add(empty);
  TNode root;
  root.kind = Kind::Block;
  root.text = "root";
  root.kids = {reads, writes, seq};
  uint32_t r = add(std::move(root));
  TNode outer;
  outer.kind = Kind::Seq;
  outer.kids = {r};
  return add(std::move(outer));
}

llvm::Expected<std::optional<tir::Body>> TirReader::run() {
  signatureDefs();
  llvm::SmallVector<uint32_t, 4> decls;
  llvm::DenseSet<const TirVarNode *> shapeVars;
  for (const PrimParam &prm : f_.params)
    for (const PrimExpr &d : prm.shape)
      forEachTirVar(d.get(), [&](const TirVarNode *v) { shapeVars.insert(v); });
  for (const auto &decl : decls_.vars) {
    if (shapeVars.count(decl.first.get()))
      continue;
    TNode s;
    s.kind = Kind::VarDecl;
    s.def = newDef(decl.first->name, decl.first->dtype);
    bind(decl.first->name, s.def);
    decls.push_back(add(std::move(s)));
  }
  int64_t body = suite(nullptr);
  if (body == kGiveUp)
    return std::nullopt;
  if (undefined_)
    return std::move(*undefined_);
  b_.root = rootWrap(static_cast<uint32_t>(body), pendingInference_);
  TNode &seq = b_.nodes[b_.root];
  seq.kids.insert(seq.kids.begin(), decls.begin(), decls.end());
  // Innermost blocks were closed first, so their regions are known when an
  // outer block reads them.
  for (const auto &[blk, code] : pendingInference_)
    if (!inferAccess(blk, code))
      return std::nullopt;
  return std::move(b_);
}

//===----------------------------------------------------------------------===//
// Parser entry
//===----------------------------------------------------------------------===//

llvm::Expected<bool> Parser::parseStructuredPrimBody(PrimFuncNode &f, const PrimDecls &decls) {
  size_t start = pos_;
  TirReader reader(*this, f, decls);
  auto body = reader.run();
  if (!body)
    return body.takeError();
  if (!*body) {
    pos_ = start;
    return false;
  }
  f.body = std::make_shared<const tir::Body>(std::move(**body));
  f.isPure = !writesParams(*f.body);
  return true;
}
