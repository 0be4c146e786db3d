//===- analysis/Purity.h - Purity of calls and functions --------*- C++ -*-===//
//
// Builds on isImpureCall (ir/Op.h, TVM `src/relax/ir/expr.cc`): a call is impure when its
// op is registered impure or its callee's FuncStructInfo says so (ExternFunc
// callees are opaque and impure). An expression contains an impure call when
// one is evaluated by it: nested functions are not looked into, because
// defining a closure has no effect; a function's calls to itself are ignored.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_PURITY_H
#define GRAFT_ANALYSIS_PURITY_H

#include "ir/Expr.h"

namespace graft {

/// Whether evaluating `e` may run an impure call. `self` (a GlobalVar or a
/// local function's var), when given, is the enclosing function: calls to it
/// are ignored. For a Function, its body is examined.
bool containsImpureCall(const ExprNode *e, const ExprNode *self = nullptr);

struct FunctionPurity {
  bool declaredPure = true; ///< `pure=` of the decorator (is_pure).
  bool forcePure = false;   ///< `relax.force_pure` attribute.
  bool hasImpureCall = false;
  /// What callers may assume: declared pure and, unless forced, free of
  /// impure calls.
  bool isPure() const { return declaredPure && (forcePure || !hasImpureCall); }
  /// Pure as declared but calling impure code without force_pure (the
  /// verifier's rule 22).
  bool violatesDeclaration() const { return declaredPure && !forcePure && hasImpureCall; }
};

FunctionPurity analyzePurity(const FunctionNode &fn, const ExprNode *self = nullptr);

} // namespace graft

#endif // GRAFT_ANALYSIS_PURITY_H
