//===- analysis/FreeVars.h - Free Relax and symbolic vars -------*- C++ -*-===//
//
// TVM's FreeVars, AllVars and FreeSymbolicVars. A Relax var is free in an
// expression when it is used there but defined elsewhere (a closure's
// captures, a branch's reads of outer vars). A symbolic var is free when it
// is used but no definition site inside the expression (a parameter's or a
// match_cast's struct info, bare occurrence) defines it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_FREEVARS_H
#define GRAFT_ANALYSIS_FREEVARS_H

#include "ir/Expr.h"

#include <vector>

namespace graft {

/// Relax vars used in `e` and not defined in it, in first-use order.
std::vector<const VarNode *> freeVars(const ExprNode *e);

/// Every Relax var `e` defines or uses, in first-occurrence order.
std::vector<const VarNode *> allVars(const ExprNode *e);

/// Symbolic vars used in `e` (shapes, prim values, struct info, sinfo_args)
/// that no definition site inside `e` defines, in first-use order.
std::vector<const TirVarNode *> freeSymbolicVars(const ExprNode *e);

} // namespace graft

#endif // GRAFT_ANALYSIS_FREEVARS_H
