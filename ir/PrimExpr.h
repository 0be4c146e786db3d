//===- ir/PrimExpr.h - Symbolic scalar expressions --------------*- C++ -*-===//
//
// The TIR-like scalar expressions that Relax shapes are made of: int64
// symbolic dims (`n = T.int64()`), constants and arithmetic. They compare
// structurally and unsimplified (docs/text-format.md); simplify() gives the canonical
// forms that TVM v0.23's struct-info inference prints.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_PRIMEXPR_H
#define GRAFT_IR_PRIMEXPR_H

#include "ir/DataType.h"
#include "ir/DenseId.h"
#include "ir/Node.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace graft {

class PrimExprNode : public Node {
public:
  DataType dtype;

  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::FirstPrim && n->getKind() <= NodeKind::LastPrim;
  }

protected:
  PrimExprNode(NodeKind kind, DataType dtype) : Node(kind), dtype(dtype) {}
};
using PrimExpr = Ref<PrimExprNode>;

/// Integer or boolean constant (bool: dtype bool, value 0/1).
class IntImmNode : public PrimExprNode {
public:
  int64_t value;
  IntImmNode(DataType dtype, int64_t value) : PrimExprNode(NodeKind::IntImm, dtype), value(value) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::IntImm; }
};

class FloatImmNode : public PrimExprNode {
public:
  double value;
  FloatImmNode(DataType dtype, double value)
      : PrimExprNode(NodeKind::FloatImm, dtype), value(value) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::FloatImm; }
};

/// A symbolic variable. Identity is the node; the name is only a hint.
class TirVarNode : public PrimExprNode {
public:
  std::string name;
  bool isSizeVar; ///< `T.int64(is_size_var=True)`: known non-negative.
  /// Index of the walks' side tables (ir/DenseId.h).
  DenseId id;
  TirVarNode(std::string name, DataType dtype, bool isSizeVar = false)
      : PrimExprNode(NodeKind::TirVar, dtype), name(std::move(name)), isSizeVar(isSizeVar) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::TirVar; }
};
using TirVar = Ref<TirVarNode>;

enum class PrimOp : uint8_t {
  Add,
  Sub,
  Mul,
  FloorDiv,
  FloorMod,
  Min,
  Max,
  EQ,
  NE,
  LT,
  LE,
  GT,
  GE,
  And,
  Or,
};

/// The spelling TVMScript uses: "+", "//", "T.min", "==", "T.And", ...
llvm::StringRef primOpSpelling(PrimOp op);
/// Comparisons and logical ops yield bool.
bool isComparisonOrLogical(PrimOp op);

class PrimBinaryNode : public PrimExprNode {
public:
  PrimOp op;
  PrimExpr a, b;
  PrimBinaryNode(PrimOp op, PrimExpr a, PrimExpr b, DataType dtype)
      : PrimExprNode(NodeKind::PrimBinary, dtype), op(op), a(std::move(a)), b(std::move(b)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimBinary; }
};

class PrimNotNode : public PrimExprNode {
public:
  PrimExpr a;
  explicit PrimNotNode(PrimExpr a)
      : PrimExprNode(NodeKind::PrimNot, DataType::boolType()), a(std::move(a)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimNot; }
};

class PrimCastNode : public PrimExprNode {
public:
  PrimExpr value;
  PrimCastNode(DataType dtype, PrimExpr value)
      : PrimExprNode(NodeKind::PrimCast, dtype), value(std::move(value)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimCast; }
};

/// `T.if_then_else(cond, a, b)` / `T.Select`.
class PrimSelectNode : public PrimExprNode {
public:
  PrimExpr cond, trueValue, falseValue;
  PrimSelectNode(PrimExpr cond, PrimExpr t, PrimExpr f)
      : PrimExprNode(NodeKind::PrimSelect, t->dtype), cond(std::move(cond)),
        trueValue(std::move(t)), falseValue(std::move(f)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimSelect; }
};

//===----------------------------------------------------------------------===//
// Construction helpers (no simplification; see simplify()).
//===----------------------------------------------------------------------===//

PrimExpr intImm(int64_t value, DataType dtype = DataType::int64());
PrimExpr boolImm(bool value);
PrimExpr floatImm(double value, DataType dtype = DataType::float64());
/// Builds `a op b`; the result dtype is bool for comparisons, else a's.
PrimExpr primBinary(PrimOp op, PrimExpr a, PrimExpr b);

/// The constant value of an IntImm, or None.
llvm::Optional<int64_t> asConstInt(const PrimExprNode *e);

//===----------------------------------------------------------------------===//
// Simplification and analysis.
//===----------------------------------------------------------------------===//

/// Canonicalizes as TVM v0.23's struct-info inference does: folds constants,
/// drops `*1`, `+0`, `//1`, flattens sums and products and orders their terms
/// as TVM prints them. Returns `e` itself when nothing changes.
PrimExpr simplify(const PrimExpr &e);

/// True when `a - b` simplifies to 0 (the "provably equal" of TVM's
/// analyzer, as far as graft's simplifier can see).
bool proveEqual(const PrimExpr &a, const PrimExpr &b);
/// True when `a != b` is provable (two different constants, or a constant
/// difference).
bool proveNotEqual(const PrimExpr &a, const PrimExpr &b);

/// Structural equality without var mapping (vars by identity).
bool primExprIdentical(const PrimExprNode *a, const PrimExprNode *b);
/// As primExprIdentical, but float immediates must have the same bits (0.0
/// and -0.0 differ, a NaN equals only the same NaN): equal means prints the same.
bool primExprBitIdentical(const PrimExprNode *a, const PrimExprNode *b);

/// Calls `fn` on every TirVar in `e`, in pre-order, left to right.
void forEachTirVar(const PrimExprNode *e, llvm::function_ref<void(const TirVarNode *)> fn);

/// Prints in TVMScript form: `n`, `n * 2 + 1`, `T.max(a, b)`, `T.int64(5)`
/// only where a bare literal would be ambiguous. Used by the printer and in
/// diagnostics.
void printPrimExpr(llvm::raw_ostream &os, const PrimExprNode *e);
std::string toString(const PrimExprNode *e);
/// As printPrimExpr, with `printVar` writing each TirVar (the Relax printer
/// uses it for renamed vars and for string forms in signatures).
void printPrimExpr(llvm::raw_ostream &os, const PrimExprNode *e,
                   llvm::function_ref<void(llvm::raw_ostream &, const TirVarNode *)> printVar);

} // namespace graft

#endif // GRAFT_IR_PRIMEXPR_H
