//===- ir/TirBody.cpp - Structured PrimFunc bodies: equal, hash, print -----===//
//
// Equality and hashing walk both trees in pre-order with a work list,
// pairing definitions as they meet them. The printer follows TVM's TIR
// printer (`src/script/printer/tir/`): nested serial loops from 0 print as
// one `T.grid`, the implicit root block as a `# with T.block("root"):`
// comment, an evaluated call as the bare call.
//
//===----------------------------------------------------------------------===//

#include "ir/TirBody.h"
#include "ir/PrintImpl.h"
#include "ir/StructuralDetail.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <charconv>
#include <cmath>

using namespace graft;
using namespace graft::tir;
using printer::dtypeSpelling;

//===----------------------------------------------------------------------===//
// Equality and hashing
//===----------------------------------------------------------------------===//

namespace {

bool sameDef(const Def &x, const Def &y) {
  return x.dtype == y.dtype && x.isBuffer == y.isBuffer && x.ndim == y.ndim;
}

/// The local comparison of two nodes (children are compared by the walk).
bool sameShallow(const TNode &x, const TNode &y) {
  return x.kind == y.kind && x.dtype == y.dtype && x.ival == y.ival &&
         structural::floatSame(x.fval, y.fval) && x.text == y.text &&
         x.kids.size() == y.kids.size() && (x.def < 0) == (y.def < 0);
}

} // namespace

bool tir::equal(const Body &a, const Body &b, std::string *where) {
  if (a.numSignatureDefs != b.numSignatureDefs) {
    if (where)
      *where = "signature";
    return false;
  }
  // Definitions of a paired with b's; -1 while not met.
  std::vector<int32_t> pairA(a.defs.size(), -1), pairB(b.defs.size(), -1);
  for (uint32_t i = 0; i < a.numSignatureDefs; ++i)
    pairA[i] = pairB[i] = static_cast<int32_t>(i);
  std::vector<std::pair<uint32_t, uint32_t>> work{{a.root, b.root}};
  while (!work.empty()) {
    auto [ia, ib] = work.back();
    work.pop_back();
    const TNode &x = a.nodes[ia], &y = b.nodes[ib];
    bool ok = sameShallow(x, y);
    if (ok && x.def >= 0) {
      // Paired where first met: usually the definition, but a block's
      // T.reads may name a buffer its body declares.
      if (pairA[x.def] < 0 && pairB[y.def] < 0) {
        ok = sameDef(a.defs[x.def], b.defs[y.def]);
        pairA[x.def] = y.def;
        pairB[y.def] = x.def;
      } else {
        ok = pairA[x.def] == y.def && pairB[y.def] == x.def;
      }
    }
    if (!ok) {
      if (where) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "statement or expression ";
        if (x.def >= 0 && static_cast<size_t>(x.def) < a.defs.size())
          os << "of '" << a.defs[x.def].name << "' ";
        if (!x.text.empty())
          os << "'" << x.text << "' ";
        os << "#" << ia;
        *where = os.str();
      }
      return false;
    }
    for (size_t k = x.kids.size(); k-- > 0;)
      work.emplace_back(x.kids[k], y.kids[k]);
  }
  return true;
}

uint64_t tir::hash(const Body &b) {
  // A definition hashes by the order it is first met in (as equal() pairs
  // them); a signature def by its position.
  std::vector<int32_t> order(b.defs.size(), -1);
  int32_t next = static_cast<int32_t>(b.numSignatureDefs);
  for (uint32_t i = 0; i < b.numSignatureDefs; ++i)
    order[i] = static_cast<int32_t>(i);
  llvm::hash_code h = llvm::hash_value(b.numSignatureDefs);
  std::vector<uint32_t> work{b.root};
  while (!work.empty()) {
    const TNode &n = b.nodes[work.back()];
    work.pop_back();
    int32_t defOrder = -1;
    if (n.def >= 0) {
      if (order[n.def] < 0)
        order[n.def] = next++;
      defOrder = order[n.def];
    }
    h = llvm::hash_combine(h, static_cast<uint8_t>(n.kind), n.dtype.code, n.dtype.bits,
                           n.dtype.lanes, n.ival, structural::floatHashBits(n.fval),
                           llvm::hash_value(n.text), n.kids.size(), defOrder);
    for (size_t k = n.kids.size(); k-- > 0;)
      work.push_back(n.kids[k]);
  }
  return static_cast<uint64_t>(h);
}

void tir::forEachCalledFunction(const Body &b, llvm::function_ref<void(llvm::StringRef)> fn) {
  for (const TNode &n : b.nodes)
    if (n.kind == Kind::Global)
      fn(n.text);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {

/// Python's binding strength of a binary operator spelling.
int precedence(llvm::StringRef op) {
  return llvm::StringSwitch<int>(op)
      .Case("or", 1)
      .Case("and", 2)
      .Cases("<", "<=", ">", ">=", "==", "!=", 4)
      .Case("|", 5)
      .Case("^", 6)
      .Case("&", 7)
      .Cases("<<", ">>", 8)
      .Cases("+", "-", 9)
      .Cases("*", "/", "//", "%", 10)
      .Case("**", 12)
      .Default(13);
}

constexpr int kUnaryPrec = 11, kNotPrec = 3, kAtomPrec = 13;

void printString(llvm::raw_ostream &os, llvm::StringRef s) {
  os << '"';
  for (char c : s) {
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\t':
      os << "\\t";
      break;
    default:
      os << c;
    }
  }
  os << '"';
}

/// Python's repr of a float: the shortest text that reads back exactly.
void printFloatValue(llvm::raw_ostream &os, double v) {
  if (std::isnan(v) || std::isinf(v)) {
    os << (std::isnan(v) ? "\"nan\"" : v > 0 ? "\"inf\"" : "\"-inf\"");
    return;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  llvm::StringRef text(buf, res.ptr - buf);
  os << text;
  if (text.find_first_of(".e") == llvm::StringRef::npos)
    os << ".0";
}

class TirPrinter {
public:
  TirPrinter(llvm::raw_ostream &os, const Body &b, llvm::StringRef module)
      : os_(os), b_(b), module_(module) {
    uniqueNames();
  }

  void stmts(uint32_t seq, unsigned indent);
  void topLevel(uint32_t seq, unsigned indent);

private:
  const TNode &n(uint32_t i) const { return b_.nodes[i]; }
  llvm::StringRef name(int32_t def) const { return names_[def]; }
  /// A body may reuse a name in an inner scope (a loop var `k` inside a
  /// function with a symbolic `k`); printed names are made unique, which
  /// alpha-equivalence makes harmless.
  void uniqueNames();
  /// An int32 literal prints bare unless its operand has another type,
  /// where reading it back would give it that type.
  void operand(uint32_t i, int outer, DataType other);
  void expr(uint32_t i, int outer = 0);
  void exprList(llvm::ArrayRef<uint32_t> kids);
  void stmt(uint32_t i, unsigned indent);
  void forStmt(uint32_t i, unsigned indent);
  void blockStmt(uint32_t i, unsigned indent);
  void suite(uint32_t seq, unsigned indent);
  /// Whether loop `i` continues a T.grid (serial from 0, no annotations).
  bool gridLoop(uint32_t i) const;
  bool usesDef(uint32_t e, llvm::ArrayRef<int32_t> defs) const;
  bool wouldWrapRoot(uint32_t seq) const;

  llvm::raw_ostream &os_;
  const Body &b_;
  llvm::StringRef module_;
  std::vector<std::string> names_;
};

void TirPrinter::uniqueNames() {
  llvm::StringSet<> used;
  used.insert(module_);
  used.insert("T");
  for (const Def &d : b_.defs) {
    std::string name = d.name;
    for (unsigned k = 1; !used.insert(name).second; ++k)
      name = d.name + "_" + std::to_string(k);
    names_.push_back(std::move(name));
  }
}

void TirPrinter::operand(uint32_t i, int outer, DataType other) {
  const TNode &e = n(i);
  if (e.kind == Kind::Int && e.dtype == DataType::int32() && other != e.dtype && !other.isVoid()) {
    os_ << "T.int32(" << e.ival << ')';
    return;
  }
  expr(i, outer);
}

void TirPrinter::exprList(llvm::ArrayRef<uint32_t> kids) {
  for (size_t k = 0; k < kids.size(); ++k) {
    if (k)
      os_ << ", ";
    expr(kids[k]);
  }
}

void TirPrinter::expr(uint32_t i, int outer) {
  const TNode &e = n(i);
  switch (e.kind) {
  case Kind::Int:
    if (e.dtype.isBool())
      os_ << (e.ival ? "True" : "False");
    else if (e.dtype == DataType::int32())
      os_ << e.ival;
    else
      os_ << "T." << dtypeSpelling(e.dtype) << '(' << e.ival << ')';
    return;
  case Kind::Float:
    os_ << "T." << dtypeSpelling(e.dtype) << '(';
    printFloatValue(os_, e.fval);
    os_ << ')';
    return;
  case Kind::Str:
    printString(os_, e.text);
    return;
  case Kind::None:
    os_ << "None";
    return;
  case Kind::Var:
    os_ << name(e.def);
    return;
  case Kind::BufAttr:
    os_ << name(e.def) << '.' << e.text;
    if (!e.kids.empty()) {
      os_ << '[';
      expr(e.kids[0]);
      os_ << ']';
    }
    return;
  case Kind::Global:
    os_ << module_ << '.' << e.text;
    return;
  case Kind::Load:
    os_ << name(e.def) << '[';
    if (e.kids.empty())
      os_ << "()"; // A 0-d buffer.
    exprList(e.kids);
    os_ << ']';
    return;
  case Kind::Slice:
    expr(e.kids[0]);
    os_ << ':';
    expr(e.kids[1]);
    return;
  case Kind::Call:
    if (e.text.empty()) {
      // A module function: kids[0] is its Global.
      expr(e.kids[0]);
      os_ << '(';
      exprList(llvm::makeArrayRef(e.kids).drop_front());
    } else {
      os_ << e.text << '(';
      exprList(e.kids);
    }
    os_ << ')';
    return;
  case Kind::Keyword:
    os_ << e.text << '=';
    expr(e.kids[0]);
    return;
  case Kind::Binary: {
    int p = precedence(e.text);
    bool paren = p < outer;
    if (paren)
      os_ << '(';
    // Left-associative: a right operand of the same strength needs parens
    // (`a - (b - c)`); `**` is right-associative.
    bool rightAssoc = e.text == "**";
    operand(e.kids[0], rightAssoc ? p + 1 : p, n(e.kids[1]).dtype);
    os_ << ' ' << e.text << ' ';
    operand(e.kids[1], rightAssoc ? p : p + 1, n(e.kids[0]).dtype);
    if (paren)
      os_ << ')';
    return;
  }
  case Kind::Unary: {
    int p = e.text == "not" ? kNotPrec : kUnaryPrec;
    bool paren = p < outer;
    if (paren)
      os_ << '(';
    os_ << e.text << (e.text == "not" ? " " : "");
    expr(e.kids[0], p);
    if (paren)
      os_ << ')';
    return;
  }
  case Kind::Tuple:
    os_ << '(';
    exprList(e.kids);
    os_ << (e.kids.size() == 1 ? ",)" : ")");
    return;
  case Kind::List:
    os_ << '[';
    exprList(e.kids);
    os_ << ']';
    return;
  case Kind::Dict:
    os_ << '{';
    for (size_t k = 0; k + 1 < e.kids.size(); k += 2) {
      if (k)
        os_ << ", ";
      expr(e.kids[k]);
      os_ << ": ";
      expr(e.kids[k + 1]);
    }
    os_ << '}';
    return;
  default:
    os_ << "T.evaluate(0)";
    return;
  }
  (void)kAtomPrec;
}

bool TirPrinter::usesDef(uint32_t e, llvm::ArrayRef<int32_t> defs) const {
  std::vector<uint32_t> work{e};
  while (!work.empty()) {
    const TNode &x = n(work.back());
    work.pop_back();
    if (x.def >= 0 && llvm::is_contained(defs, x.def))
      return true;
    work.insert(work.end(), x.kids.begin(), x.kids.end());
  }
  return false;
}

bool TirPrinter::gridLoop(uint32_t i) const {
  const TNode &f = n(i);
  if (f.kind != Kind::For || f.text != "serial" || f.kids.size() != 3)
    return false;
  const TNode &begin = n(f.kids[0]);
  return begin.kind == Kind::Int && begin.ival == 0 && !begin.dtype.isBool();
}

void TirPrinter::forStmt(uint32_t i, unsigned indent) {
  const TNode &f = n(i);
  os_.indent(indent * 4);
  if (gridLoop(i)) {
    // Serial loops from 0 nested directly, none's extent using an outer
    // loop's var, print as one T.grid.
    llvm::SmallVector<uint32_t, 4> loops{i};
    llvm::SmallVector<int32_t, 4> vars{f.def};
    for (;;) {
      const TNode &body = n(n(loops.back()).kids[2]);
      if (body.kids.size() != 1 || !gridLoop(body.kids[0]) ||
          usesDef(n(body.kids[0]).kids[1], vars))
        break;
      loops.push_back(body.kids[0]);
      vars.push_back(n(body.kids[0]).def);
    }
    os_ << "for ";
    for (size_t k = 0; k < loops.size(); ++k)
      os_ << (k ? ", " : "") << name(n(loops[k]).def);
    if (loops.size() == 1) {
      os_ << " in range(";
      expr(f.kids[1]);
    } else {
      os_ << " in T.grid(";
      for (size_t k = 0; k < loops.size(); ++k) {
        if (k)
          os_ << ", ";
        expr(n(loops[k]).kids[1]);
      }
    }
    os_ << "):\n";
    suite(n(loops.back()).kids[2], indent + 1);
    return;
  }
  os_ << "for " << name(f.def) << " in ";
  os_ << "T." << f.text << '(';
  // From 0 the begin is left out, as TVM prints it.
  const TNode &begin = n(f.kids[0]);
  if (!(begin.kind == Kind::Int && begin.ival == 0 && !begin.dtype.isBool())) {
    expr(f.kids[0]);
    os_ << ", ";
  }
  expr(f.kids[1]);
  for (size_t k = 3; k < f.kids.size(); ++k) {
    os_ << ", ";
    expr(f.kids[k]);
  }
  os_ << "):\n";
  suite(f.kids[2], indent + 1);
}

void TirPrinter::blockStmt(uint32_t i, unsigned indent) {
  const TNode &blk = n(i);
  os_.indent(indent * 4) << "with T.block(";
  printString(os_, blk.text);
  os_ << "):\n";
  unsigned in = indent + 1;
  // Buffers the body declares first (`T.Buffer(..., data=p)`) print right
  // after the block's vars, since its T.reads may name them.
  const TNode &body = n(blk.kids.back());
  size_t leadingDecls = 0;
  while (leadingDecls < body.kids.size() && n(body.kids[leadingDecls]).kind == Kind::BufferDecl &&
         n(n(body.kids[leadingDecls]).kids[0]).text != "T.alloc_buffer")
    ++leadingDecls;
  bool declsPrinted = false;
  for (uint32_t k : blk.kids) {
    const TNode &part = n(k);
    if (part.kind != Kind::IterVar && !declsPrinted) {
      for (size_t d = 0; d < leadingDecls; ++d)
        stmt(body.kids[d], in);
      declsPrinted = true;
    }
    switch (part.kind) {
    case Kind::IterVar: {
      os_.indent(in * 4) << name(part.def) << " = T.axis." << part.text << '(';
      const TNode &begin = n(part.kids[0]);
      if (begin.kind == Kind::Int && begin.ival == 0 && !begin.dtype.isBool()) {
        expr(part.kids[1]);
      } else {
        os_ << '(';
        expr(part.kids[0]);
        os_ << ", ";
        expr(part.kids[1]);
        os_ << ')';
      }
      os_ << ", ";
      expr(part.kids[2]);
      os_ << ")\n";
      break;
    }
    case Kind::Where:
      os_.indent(in * 4) << "T.where(";
      expr(part.kids[0]);
      os_ << ")\n";
      break;
    case Kind::Reads:
    case Kind::Writes:
      os_.indent(in * 4) << (part.kind == Kind::Reads ? "T.reads(" : "T.writes(");
      exprList(part.kids);
      os_ << ")\n";
      break;
    case Kind::BlockAttr:
      os_.indent(in * 4) << "T.block_attr(";
      expr(part.kids[0]);
      os_ << ")\n";
      break;
    case Kind::Init:
      os_.indent(in * 4) << "with T.init():\n";
      suite(part.kids[0], in + 1);
      break;
    case Kind::Seq:
      // Its leading buffer declarations went before the header.
      for (uint32_t s : llvm::makeArrayRef(part.kids).drop_front(leadingDecls))
        stmt(s, in);
      break;
    default:
      break;
    }
  }
}

void TirPrinter::suite(uint32_t seq, unsigned indent) {
  if (n(seq).kids.empty()) {
    os_.indent(indent * 4) << "T.evaluate(0)\n";
    return;
  }
  stmts(seq, indent);
}

void TirPrinter::stmts(uint32_t seq, unsigned indent) {
  for (uint32_t k : n(seq).kids)
    stmt(k, indent);
}

void TirPrinter::stmt(uint32_t i, unsigned indent) {
  const TNode &s = n(i);
  switch (s.kind) {
  case Kind::For:
    return forStmt(i, indent);
  case Kind::Block:
    return blockStmt(i, indent);
  case Kind::Store:
    os_.indent(indent * 4) << name(s.def) << '[';
    if (s.kids.size() == 1)
      os_ << "()";
    exprList(llvm::makeArrayRef(s.kids).drop_front());
    os_ << "] = ";
    operand(s.kids[0], 0, b_.defs[s.def].dtype);
    os_ << '\n';
    return;
  case Kind::If: {
    os_.indent(indent * 4) << "if ";
    expr(s.kids[0]);
    os_ << ":\n";
    suite(s.kids[1], indent + 1);
    if (!n(s.kids[2]).kids.empty()) {
      os_.indent(indent * 4) << "else:\n";
      suite(s.kids[2], indent + 1);
    }
    return;
  }
  case Kind::While:
    os_.indent(indent * 4) << "while ";
    expr(s.kids[0]);
    os_ << ":\n";
    suite(s.kids[1], indent + 1);
    return;
  case Kind::Let:
    os_.indent(indent * 4) << name(s.def);
    if (!b_.defs[s.def].dtype.isVoid())
      os_ << ": T." << dtypeSpelling(b_.defs[s.def].dtype);
    os_ << " = ";
    expr(s.kids[0]);
    os_ << '\n';
    return;
  case Kind::BufferDecl:
    os_.indent(indent * 4) << name(s.def) << " = ";
    expr(s.kids[0]);
    os_ << '\n';
    return;
  case Kind::VarDecl:
    os_.indent(indent * 4) << name(s.def) << " = T." << dtypeSpelling(b_.defs[s.def].dtype)
                           << "()\n";
    return;
  case Kind::With:
    os_.indent(indent * 4) << "with ";
    expr(s.kids[0]);
    if (s.def >= 0)
      os_ << " as " << name(s.def);
    os_ << ":\n";
    suite(s.kids[1], indent + 1);
    return;
  case Kind::Evaluate:
    os_.indent(indent * 4);
    if (n(s.kids[0]).kind == Kind::Call) {
      expr(s.kids[0]);
    } else {
      os_ << "T.evaluate(";
      expr(s.kids[0]);
      os_ << ')';
    }
    os_ << '\n';
    return;
  case Kind::Assert:
    os_.indent(indent * 4) << "assert ";
    expr(s.kids[0]);
    os_ << ", ";
    expr(s.kids[1]);
    os_ << '\n';
    return;
  case Kind::Return:
    os_.indent(indent * 4) << "return ";
    expr(s.kids[0]);
    os_ << '\n';
    return;
  default:
    os_.indent(indent * 4) << "T.evaluate(0)\n";
    return;
  }
}

bool TirPrinter::wouldWrapRoot(uint32_t seq) const {
  for (uint32_t k : n(seq).kids)
    if (n(k).kind == Kind::BufferDecl && n(n(k).kids[0]).text == "T.alloc_buffer")
      return true;
  std::vector<uint32_t> work(n(seq).kids.begin(), n(seq).kids.end());
  while (!work.empty()) {
    const TNode &x = n(work.back());
    work.pop_back();
    if (x.kind == Kind::Block)
      return true;
    work.insert(work.end(), x.kids.begin(), x.kids.end());
  }
  return false;
}

void TirPrinter::topLevel(uint32_t seq, unsigned indent) {
  // The root block TVM's parser adds prints as a comment: reading the body
  // back adds it again.
  const TNode &top = n(seq);
  if (top.kids.size() == 1 && n(top.kids[0]).kind == Kind::Block) {
    const TNode &blk = n(top.kids[0]);
    bool plain = blk.text == "root";
    for (uint32_t k : blk.kids) {
      const TNode &part = n(k);
      if (part.kind == Kind::Reads || part.kind == Kind::Writes)
        plain = plain && part.kids.empty();
      else if (part.kind != Kind::Seq)
        plain = false;
    }
    uint32_t body = blk.kids.back();
    if (plain && n(body).kind == Kind::Seq && wouldWrapRoot(body)) {
      os_.indent(indent * 4) << "# with T.block(\"root\"):\n";
      return suite(body, indent);
    }
  }
  suite(seq, indent);
}

} // namespace

void tir::print(llvm::raw_ostream &os, const Body &b, unsigned indent, llvm::StringRef module) {
  TirPrinter(os, b, module).topLevel(b.root, indent);
}
