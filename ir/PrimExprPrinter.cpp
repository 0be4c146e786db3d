//===- ir/PrimExprPrinter.cpp - PrimExprs in TVMScript form -----------------===//
//
// Prints with Python precedence so that the text parses back to the same
// tree: binary operators are left-associative (a right operand of equal
// precedence gets parentheses) and comparisons never chain (`a < b < c`
// would mean `a < b and b < c`), so a comparison operand of a comparison is
// parenthesized. Everything else prints as a call (`T.min`, `T.And`, ...).
//
//===----------------------------------------------------------------------===//

#include "ir/PrimExpr.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace graft;

namespace {

using VarPrinter = llvm::function_ref<void(llvm::raw_ostream &, const TirVarNode *)>;

enum Prec : int {
  PrecCompare = 4,
  PrecAdd = 5,
  PrecMul = 6,
  PrecUnary = 7,
  PrecAtom = 100,
};

int precedenceOf(const PrimExprNode *e) {
  if (const auto *imm = llvm::dyn_cast<IntImmNode>(e))
    return imm->value < 0 && !imm->dtype.isBool() ? PrecUnary : PrecAtom;
  const auto *b = llvm::dyn_cast<PrimBinaryNode>(e);
  if (!b)
    return PrecAtom;
  switch (b->op) {
  case PrimOp::Add:
  case PrimOp::Sub:
    return PrecAdd;
  case PrimOp::Mul:
  case PrimOp::FloorDiv:
  case PrimOp::FloorMod:
    return PrecMul;
  case PrimOp::EQ:
  case PrimOp::NE:
  case PrimOp::LT:
  case PrimOp::LE:
  case PrimOp::GT:
  case PrimOp::GE:
    return PrecCompare;
  default:
    return PrecAtom; // Min, Max, And, Or print as calls.
  }
}

void printFloatLiteral(llvm::raw_ostream &os, double v) {
  if (std::isnan(v)) {
    os << "\"nan\"";
    return;
  }
  if (std::isinf(v)) {
    os << (v < 0 ? "\"-inf\"" : "\"inf\"");
    return;
  }
  char buf[64];
  if (v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  os << buf;
}

class Printer {
public:
  /// `faithful`: an int32 literal that would read back as int64 says its type.
  Printer(llvm::raw_ostream &os, VarPrinter printVar, bool faithful)
      : os_(os), printVar_(printVar), bareInt32_(!faithful), faithful_(faithful) {}

  void print(const PrimExprNode *e) {
    if (!e) {
      os_ << "None";
      return;
    }
    switch (e->getKind()) {
    case NodeKind::IntImm:
      printInt(llvm::cast<IntImmNode>(e));
      return;
    case NodeKind::FloatImm: {
      const auto *f = llvm::cast<FloatImmNode>(e);
      os_ << "T." << f->dtype.str() << '(';
      printFloatLiteral(os_, f->value);
      os_ << ')';
      return;
    }
    case NodeKind::TirVar:
      printVar_(os_, llvm::cast<TirVarNode>(e));
      return;
    case NodeKind::PrimBinary:
      printBinary(llvm::cast<PrimBinaryNode>(e));
      return;
    case NodeKind::PrimNot:
      printCall("T.Not", {llvm::cast<PrimNotNode>(e)->a.get()});
      return;
    case NodeKind::PrimCast: {
      const auto *c = llvm::cast<PrimCastNode>(e);
      os_ << "T.Cast(\"" << c->dtype.str() << "\", ";
      bool saved = bareInt32_;
      bareInt32_ = !faithful_;
      print(c->value.get());
      bareInt32_ = saved;
      os_ << ')';
      return;
    }
    case NodeKind::PrimSelect: {
      const auto *s = llvm::cast<PrimSelectNode>(e);
      printCall("T.if_then_else", {s->cond.get(), s->trueValue.get(), s->falseValue.get()});
      return;
    }
    default:
      os_ << "<?>";
      return;
    }
  }

private:
  void printInt(const IntImmNode *imm) {
    if (imm->dtype.isBool()) {
      os_ << (imm->value ? "True" : "False");
      return;
    }
    // An int32 literal reads back as int32 only next to an int32 operand
    // that fixes its type (the parser's literal rule); alone it would read
    // back as int64, so it says its type.
    if (imm->dtype == DataType::int64() || (imm->dtype == DataType::int32() && bareInt32_)) {
      os_ << imm->value;
      return;
    }
    os_ << "T." << imm->dtype.str() << '(' << imm->value << ')';
  }

  void printCall(llvm::StringRef callee, std::initializer_list<const PrimExprNode *> args) {
    os_ << callee << '(';
    bool first = true;
    bool saved = bareInt32_;
    bareInt32_ = !faithful_;
    for (const PrimExprNode *a : args) {
      if (!first)
        os_ << ", ";
      first = false;
      print(a);
    }
    bareInt32_ = saved;
    os_ << ')';
  }

  void printOperand(const PrimExprNode *e, bool needParens) {
    if (needParens)
      os_ << '(';
    print(e);
    if (needParens)
      os_ << ')';
  }

  void printBinary(const PrimBinaryNode *b) {
    switch (b->op) {
    case PrimOp::Min:
      printCall("T.min", {b->a.get(), b->b.get()});
      return;
    case PrimOp::Max:
      printCall("T.max", {b->a.get(), b->b.get()});
      return;
    case PrimOp::And:
      printCall("T.And", {b->a.get(), b->b.get()});
      return;
    case PrimOp::Or:
      printCall("T.Or", {b->a.get(), b->b.get()});
      return;
    default:
      break;
    }
    int prec = precedenceOf(b);
    int lp = b->a ? precedenceOf(b->a.get()) : PrecAtom;
    int rp = b->b ? precedenceOf(b->b.get()) : PrecAtom;
    bool compare = prec == PrecCompare;
    // Left-associative: the left operand needs parens only when it binds
    // looser; a comparison never takes an unparenthesized comparison.
    printOperandOf(b, b->a.get(), b->b.get(), compare ? lp <= prec : lp < prec);
    os_ << ' ' << primOpSpelling(b->op) << ' ';
    printOperandOf(b, b->b.get(), b->a.get(), rp <= prec);
  }

  /// Prints `operand` of a binary op whose other operand is `other`.
  void printOperandOf(const PrimBinaryNode *, const PrimExprNode *operand,
                      const PrimExprNode *other, bool needParens) {
    bool saved = bareInt32_;
    bareInt32_ =
        !faithful_ || (other && !llvm::isa<IntImmNode>(other) && other->dtype == DataType::int32());
    printOperand(operand, needParens);
    bareInt32_ = saved;
  }

  llvm::raw_ostream &os_;
  VarPrinter printVar_;
  bool bareInt32_;
  const bool faithful_;
};

void printVarName(llvm::raw_ostream &os, const TirVarNode *v) { os << v->name; }

} // namespace

void graft::printPrimExpr(llvm::raw_ostream &os, const PrimExprNode *e, VarPrinter printVar) {
  Printer(os, printVar, /*faithful=*/true).print(e);
}

void graft::printPrimExpr(llvm::raw_ostream &os, const PrimExprNode *e) {
  Printer(os, printVarName, /*faithful=*/false).print(e);
}

std::string graft::toString(const PrimExprNode *e) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printPrimExpr(os, e);
  os.flush();
  return out;
}
