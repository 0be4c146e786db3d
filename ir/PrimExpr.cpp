//===- ir/PrimExpr.cpp - PrimExpr construction ------------------------------===//
//
// Construction helpers only; simplification lives in ir/Simplify.cpp and
// printing in ir/PrimExprPrinter.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/PrimExpr.h"

using namespace graft;

PrimExpr graft::intImm(int64_t value, DataType dtype) { return make<IntImmNode>(dtype, value); }
PrimExpr graft::boolImm(bool value) { return make<IntImmNode>(DataType::boolType(), value); }
PrimExpr graft::floatImm(double value, DataType dtype) { return make<FloatImmNode>(dtype, value); }

bool graft::isComparisonOrLogical(PrimOp op) {
  switch (op) {
  case PrimOp::EQ:
  case PrimOp::NE:
  case PrimOp::LT:
  case PrimOp::LE:
  case PrimOp::GT:
  case PrimOp::GE:
  case PrimOp::And:
  case PrimOp::Or:
    return true;
  default:
    return false;
  }
}

llvm::StringRef graft::primOpSpelling(PrimOp op) {
  switch (op) {
  case PrimOp::Add:
    return "+";
  case PrimOp::Sub:
    return "-";
  case PrimOp::Mul:
    return "*";
  case PrimOp::FloorDiv:
    return "//";
  case PrimOp::FloorMod:
    return "%";
  case PrimOp::Min:
    return "T.min";
  case PrimOp::Max:
    return "T.max";
  case PrimOp::EQ:
    return "==";
  case PrimOp::NE:
    return "!=";
  case PrimOp::LT:
    return "<";
  case PrimOp::LE:
    return "<=";
  case PrimOp::GT:
    return ">";
  case PrimOp::GE:
    return ">=";
  case PrimOp::And:
    return "and";
  case PrimOp::Or:
    return "or";
  }
  return "?";
}

PrimExpr graft::primBinary(PrimOp op, PrimExpr a, PrimExpr b) {
  DataType dt = isComparisonOrLogical(op) ? DataType::boolType() : a->dtype;
  return make<PrimBinaryNode>(op, std::move(a), std::move(b), dt);
}

llvm::Optional<int64_t> graft::asConstInt(const PrimExprNode *e) {
  if (const auto *imm = llvm::dyn_cast_or_null<IntImmNode>(e))
    return imm->value;
  return llvm::None;
}
