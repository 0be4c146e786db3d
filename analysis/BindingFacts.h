//===- analysis/BindingFacts.h - Definitions and use counts of one function -*- C++ -*-===//
//
// What fuse-masked-copy, remove-device-asserts and kill-after-last-use need
// to know about a top-level function, nested functions and If branches
// included: where each var is bound, in which block, how often each var and
// each symbolic var is mentioned. One walk, linear in the size of the
// function.
//
// Uses count every mention outside a definition: call arguments, returns,
// If conditions, captures by nested functions and struct info (a tensor
// whose shape is a Shape var uses that var). A pass that deletes a binding
// subtracts exactly what collectBindingUses reports for it, so the counts
// stay consistent.
//
// Unlike analysis/UseDef.h (TVM's CollectVarUsage, for dead-code
// elimination), this counts struct-info mentions and symbolic vars and
// records each binding's block, which those passes' checks need.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_BINDINGFACTS_H
#define GRAFT_ANALYSIS_BINDINGFACTS_H

#include "ir/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace graft {

struct BindingFacts {
  /// The binding of each var bound in the function (params are absent).
  llvm::DenseMap<const VarNode *, const BindingNode *> def;
  /// The block that holds each binding.
  llvm::DenseMap<const BindingNode *, const BindingBlockNode *> blockOf;
  llvm::DenseMap<const VarNode *, unsigned> uses;
  /// Mentions of each symbolic var, definition sites included.
  llvm::DenseMap<const TirVarNode *, unsigned> tirMentions;
  /// Every binding, in walk order (nested scopes where they occur).
  std::vector<const BindingNode *> bindings;

  static BindingFacts build(const FunctionNode &fn);

  const BindingNode *definition(const VarNode *var) const { return def.lookup(var); }
  /// The value bound by a VarBinding of `e` when `e` is such a var; else null.
  const ExprNode *boundValue(const ExprNode *e) const;
  unsigned useCount(const VarNode *var) const { return uses.lookup(var); }
};

/// The vars one binding reads, with multiplicity, as BindingFacts counts them.
void collectBindingUses(const BindingNode *binding, llvm::SmallVectorImpl<const VarNode *> &out);

} // namespace graft

#endif // GRAFT_ANALYSIS_BINDINGFACTS_H
