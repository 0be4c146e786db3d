//===- analysis/Analyses.h - The analyses an AnalysisManager caches -*- C++ -*-===//
//
// One type per analysis of a top-level Relax function, in the form
// pass/AnalysisManager.h expects: a `Result` and `static Result compute(const
// FunctionNode &)`. Passes ask the manager for them (`getAnalysis<
// UseDefAnalysis>()`) so that a result computed once serves every pass until
// one changes the function without declaring the analysis preserved.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_ANALYSES_H
#define GRAFT_ANALYSIS_ANALYSES_H

#include "analysis/BindingFacts.h"
#include "analysis/DefinedVars.h"
#include "analysis/FreeVars.h"
#include "analysis/Liveness.h"
#include "analysis/Purity.h"
#include "analysis/UseDef.h"

namespace graft {

/// Use-def chains and use counts (UseDef.h).
struct UseDefAnalysis {
  using Result = UseDefInfo;
  static Result compute(const FunctionNode &fn) { return computeUseDef(&fn); }
};

/// Last uses in the function body and its `if` branches (Liveness.h).
struct LivenessAnalysis {
  using Result = LivenessInfo;
  static Result compute(const FunctionNode &fn) {
    return fn.body ? computeLastUses(*fn.body) : Result();
  }
};

/// Declared and actual purity (Purity.h).
struct PurityAnalysis {
  using Result = FunctionPurity;
  static Result compute(const FunctionNode &fn) { return analyzePurity(fn); }
};

/// Relax and symbolic vars used but not defined in the function (FreeVars.h).
struct FreeVarsAnalysis {
  struct Result {
    std::vector<const VarNode *> vars;
    std::vector<const TirVarNode *> symbolicVars;
  };
  static Result compute(const FunctionNode &fn) { return {freeVars(&fn), freeSymbolicVars(&fn)}; }
};

/// Every var definition in order (DefinedVars.h).
struct DefinedVarsAnalysis {
  using Result = std::vector<DefinedVar>;
  static Result compute(const FunctionNode &fn) { return definedVars(&fn); }
};

/// Definitions, blocks and use counts with struct-info mentions
/// (BindingFacts.h).
struct BindingFactsAnalysis {
  using Result = BindingFacts;
  static Result compute(const FunctionNode &fn) { return BindingFacts::build(fn); }
};

} // namespace graft

#endif // GRAFT_ANALYSIS_ANALYSES_H
