//===- analysis/DefinedVars.h - Every var definition, in order -*- C++ -*-===//
//
// Lists the Relax vars an expression defines, whatever the definition kind:
// function parameters (its own and those of nested functions), VarBinding
// vars and MatchCast vars alike. It rides on ExprVisitor::visitVarDef, the one
// hook every definition goes through, so a new binding kind cannot be missed.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_DEFINEDVARS_H
#define GRAFT_ANALYSIS_DEFINEDVARS_H

#include "ir/Expr.h"

#include <vector>

namespace graft {

struct DefinedVar {
  const VarNode *var;
  /// The defining binding; null for a function parameter.
  const BindingNode *binding;
};

/// Definitions in visit order (a local function's var before its body).
std::vector<DefinedVar> definedVars(const ExprNode *e);

} // namespace graft

#endif // GRAFT_ANALYSIS_DEFINEDVARS_H
