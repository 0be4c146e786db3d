//===- ir/PrintPrimFunc.cpp - PrimFunc declarations and token bodies --------===//
//
// graft keeps a PrimFunc as its signature, attrs and buffer declarations
// plus the rest of the body as canonical tokens. It prints back as
//
//   @T.prim_func(private=True)
//   def add(var_A: T.handle, B: T.Buffer((T.int64(4),), "float32")):
//       T.func_attr({"tir.noalias": True})
//       n = T.int64()
//       A = T.match_buffer(var_A, (n,), "float32")
//       <tokens, one statement per line, re-indented>
//
// A buffer with only constant dims is a `T.Buffer` parameter; one with a
// symbolic dim goes through a handle and `T.match_buffer`, as TVM prints it,
// since TIR only lets declared vars into a buffer shape.
//
//===----------------------------------------------------------------------===//

#include "ir/PrintImpl.h"
#include "ir/TirBody.h"

#include "llvm/ADT/StringExtras.h"

using namespace graft;
using namespace graft::printer;

namespace {

bool isConstShape(const PrimParam &p) {
  for (const PrimExpr &d : p.shape)
    if (!llvm::isa<IntImmNode>(d.get()))
      return false;
  return true;
}

/// TIR literal conventions: int32 is bare, int64 is `T.int64(v)`.
void printTirExpr(llvm::raw_ostream &os, const PrimExprNode *e) {
  if (const auto *imm = llvm::dyn_cast_or_null<IntImmNode>(e)) {
    if (imm->dtype == DataType::int32()) {
      os << imm->value;
      return;
    }
    if (!imm->dtype.isBool()) {
      os << "T." << imm->dtype.str() << '(' << imm->value << ')';
      return;
    }
  }
  printPrimExpr(os, e);
}

/// `e` with every int64 literal replaced by a var named `T.int64(v)`: in a
/// TIR statement TVM spells every int64 literal that way, not only a
/// top-level one (`T.ret(n + T.int64(1))`).
PrimExpr withTirLiterals(const PrimExpr &e) {
  if (const auto *imm = llvm::dyn_cast<IntImmNode>(e.get()))
    return imm->dtype == DataType::int64()
               ? make<TirVarNode>("T.int64(" + std::to_string(imm->value) + ")", imm->dtype)
               : e;
  if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get()))
    return make<PrimBinaryNode>(b->op, withTirLiterals(b->a), withTirLiterals(b->b), b->dtype);
  if (const auto *n = llvm::dyn_cast<PrimNotNode>(e.get()))
    return make<PrimNotNode>(withTirLiterals(n->a));
  if (const auto *c = llvm::dyn_cast<PrimCastNode>(e.get()))
    return make<PrimCastNode>(c->dtype, withTirLiterals(c->value));
  if (const auto *s = llvm::dyn_cast<PrimSelectNode>(e.get()))
    return make<PrimSelectNode>(withTirLiterals(s->cond), withTirLiterals(s->trueValue),
                                withTirLiterals(s->falseValue));
  return e;
}

void printShapeTuple(llvm::raw_ostream &os, const std::vector<PrimExpr> &shape) {
  os << '(';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      os << ", ";
    printTirExpr(os, shape[i].get());
  }
  os << (shape.size() == 1 ? ",)" : ")");
}

bool isLayout(llvm::StringRef t, llvm::StringRef which) { return t == which; }

bool isOpenBracket(llvm::StringRef t) { return t == "(" || t == "[" || t == "{"; }
bool isCloseBracket(llvm::StringRef t) { return t == ")" || t == "]" || t == "}"; }

/// Whether `prev` and `cur` (adjacent tokens of one line) need a space.
bool needsSpace(llvm::StringRef prev, llvm::StringRef cur, int depth) {
  // A number and an adjacent '.' would lex as one number literal ("2 .v",
  // "v. 5").
  if ((cur == "." && !prev.empty() && llvm::isDigit(prev.front())) ||
      (prev == "." && !cur.empty() && llvm::isDigit(cur.front())))
    return true;
  // Two operator tokens written together would lex as one ("=" "=" as
  // "==", "*" "*" as "**").
  auto isOperatorChar = [](char c) { return llvm::StringRef("=<>!+-*/%&|^~").contains(c); };
  if (!prev.empty() && !cur.empty() && isOperatorChar(prev.back()) && isOperatorChar(cur.front()))
    return true;
  if (prev.empty() || isOpenBracket(prev) || prev == "." || prev == "@")
    return false;
  if (isCloseBracket(cur) || cur == "," || cur == "." || cur == ":")
    return false;
  if ((cur == "(" || cur == "[") && !prev.empty() &&
      (isCloseBracket(prev) || llvm::isAlnum(prev.back()) || prev.back() == '_' ||
       prev.back() == '"' || prev.back() == '\''))
    return false; // A call or a subscript.
  if (depth > 0 && (cur == "=" || prev == "="))
    return false; // Keyword argument.
  return true;
}

} // namespace

void ScriptPrinter::printTirDim(llvm::raw_ostream &os, const PrimExprNode *e) {
  printTirExpr(os, e);
}

bool graft::printGeneratedPrimFuncBody(llvm::raw_ostream &os, const PrimFuncNode &pf,
                                       unsigned indent) {
  if (!pf.heapStores.empty() && !pf.params.empty()) {
    // TVM's shape_func: `H[T.int64(slot)] = expr`, each var of expr a load.
    const std::string &heap = pf.params.front().name;
    auto printVar = [&](llvm::raw_ostream &out, const TirVarNode *v) {
      for (const auto &load : pf.heapLoads)
        if (load.second.get() == v) {
          out << heap << "[T.int64(" << load.first << ")]";
          return;
        }
      out << v->name;
    };
    for (const auto &store : pf.heapStores) {
      os.indent(indent * 4) << heap << "[T.int64(" << store.first << ")] = ";
      printPrimExpr(os, withTirLiterals(store.second).get(), printVar);
      os << '\n';
    }
    return true;
  }
  if (pf.computed) {
    os.indent(indent * 4) << (pf.retType.isVoid() ? "T.evaluate(" : "T.ret(");
    printPrimExpr(os, withTirLiterals(pf.computed).get());
    os << ")\n";
    return true;
  }
  return false;
}

void ScriptPrinter::printPrimFuncBody(llvm::raw_ostream &os, const PrimFuncNode &pf,
                                      unsigned indent) {
  if (pf.body) {
    tir::print(os, *pf.body, indent, module_ ? llvm::StringRef(module_->name) : "Module");
    return;
  }
  if (pf.bodyTokens.empty()) {
    if (!printGeneratedPrimFuncBody(os, pf, indent))
      os.indent(indent * 4) << "T.evaluate(0)\n";
    return;
  }
  // Layout tokens are "<NEWLINE>", "<INDENT>" and "<DEDENT>" (a real token
  // never starts with '<' followed by a letter); "\n" also ends a line.
  unsigned level = indent;
  bool lineStart = true;
  int depth = 0;
  llvm::StringRef prev;
  for (const std::string &tok : pf.bodyTokens) {
    llvm::StringRef t(tok);
    if (isLayout(t, "<NEWLINE>") || t == "\n") {
      if (!lineStart)
        os << '\n';
      lineStart = true;
      prev = {};
      continue;
    }
    if (isLayout(t, "<INDENT>")) {
      ++level;
      continue;
    }
    if (isLayout(t, "<DEDENT>")) {
      if (level > indent)
        --level;
      continue;
    }
    if (lineStart) {
      os.indent(level * 4);
      lineStart = false;
      depth = 0;
    } else if (needsSpace(prev, t, depth)) {
      os << ' ';
    }
    os << t;
    if (isOpenBracket(t))
      ++depth;
    else if (isCloseBracket(t) && depth > 0)
      --depth;
    prev = t;
  }
  if (!lineStart)
    os << '\n';
}

void ScriptPrinter::printPrimFunc(llvm::raw_ostream &os, const PrimFuncNode &pf,
                                  llvm::StringRef name, unsigned indent) {
  os.indent(indent * 4) << "@T.prim_func";
  if (pf.isPrivate || !pf.checkWellFormed) {
    os << '(';
    if (pf.isPrivate)
      os << "private=True";
    if (!pf.checkWellFormed)
      os << (pf.isPrivate ? ", " : "") << "check_well_formed=False";
    os << ')';
  }
  os << '\n';
  os.indent(indent * 4) << "def " << name << '(';
  for (size_t i = 0; i < pf.params.size(); ++i) {
    const PrimParam &p = pf.params[i];
    os << (i ? ", " : "");
    switch (p.kind) {
    case PrimParam::Kind::Buffer:
      if (isConstShape(p)) {
        os << p.name << ": T.Buffer(";
        printShapeTuple(os, p.shape);
        os << ", \"" << dtypeSpelling(p.dtype) << "\")";
      } else {
        os << "var_" << p.name << ": T.handle";
      }
      break;
    case PrimParam::Kind::Handle:
      os << p.name << ": T.handle";
      break;
    case PrimParam::Kind::Scalar:
      os << p.name << ": T." << dtypeSpelling(p.dtype);
      break;
    }
  }
  os << ')';
  if (!pf.retType.isVoid())
    os << " -> T." << dtypeSpelling(pf.retType);
  os << ":\n";

  if (pf.attrs) {
    AttrDict shown;
    for (const auto &entry : pf.attrs->entries)
      if (!(entry.first == "global_symbol" && entry.second.kind() == AttrValue::Kind::String &&
            entry.second.getString() == name))
        shown.push_back(entry);
    if (!shown.empty()) {
      os.indent((indent + 1) * 4) << "T.func_attr(";
      printAttrDict(os, shown);
      os << ")\n";
    }
  }
  // Symbolic dims of match_buffer'd params, declared in first-use order. A
  // dim named like a scalar param is that param: declaring it would shadow it.
  llvm::SmallVector<const TirVarNode *, 4> declared;
  llvm::DenseSet<const TirVarNode *> seen;
  auto isScalarParam = [&](const TirVarNode *v) {
    for (const PrimParam &p : pf.params)
      if (p.kind == PrimParam::Kind::Scalar && p.name == v->name)
        return true;
    return false;
  };
  for (const PrimParam &p : pf.params)
    if (p.kind == PrimParam::Kind::Buffer && !isConstShape(p))
      for (const PrimExpr &d : p.shape)
        forEachTirVar(d.get(), [&](const TirVarNode *v) {
          if (seen.insert(v).second && !isScalarParam(v))
            declared.push_back(v);
        });
  for (const TirVarNode *v : declared)
    os.indent((indent + 1) * 4) << v->name << " = T." << dtypeSpelling(v->dtype) << "()\n";
  for (const PrimParam &p : pf.params) {
    if (p.kind != PrimParam::Kind::Buffer || isConstShape(p))
      continue;
    os.indent((indent + 1) * 4) << p.name << " = T.match_buffer(var_" << p.name << ", ";
    printShapeTuple(os, p.shape);
    os << ", \"" << dtypeSpelling(p.dtype) << "\")\n";
  }
  printPrimFuncBody(os, pf, indent + 1);
}
