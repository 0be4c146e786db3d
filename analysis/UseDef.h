//===- analysis/UseDef.h - Use-def chains and use counts --------*- C++ -*-===//
//
// One walk over an expression (typically a function) records, for every
// Relax var: where it is defined, how many times it is used, and which
// bindings use it. "Users" follow TVM's CollectVarUsage, which
// dead-code-elimination relies on:
//  - a use inside the value of a VarBinding is a use by that binding's var
//    (for an If value, a use in a branch's own bindings is a use by those
//    bindings' vars; a use in a branch's result is a use by the If's var);
//  - a use anywhere else is an "output": a SeqExpr result, a match_cast value
//    outside any VarBinding, or a nested function's result.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_USEDEF_H
#define GRAFT_ANALYSIS_USEDEF_H

#include "ir/DenseId.h"
#include "ir/Expr.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace graft {

/// Vars are numbered in order of first occurrence (definition or use); the
/// per-var data lives in vectors indexed by that number. The number of a var
/// is found through its DenseId (ir/DenseId.h), an array index rather than a
/// hash probe: a 200k-binding function's pointer-keyed map was 8 MiB probed
/// at random, three times per binding (docs/performance.md).
struct UseDefInfo {
  struct VarInfo {
    const VarNode *var = nullptr;
    /// The defining binding; null for a parameter or a var defined
    /// outside the expression.
    const BindingNode *binding = nullptr;
    bool defined = false;
    /// Number of use sites.
    unsigned useCount = 0;
    /// Indices of the vars of the VarBindings that read this var, in
    /// first-use order, each once.
    llvm::SmallVector<unsigned, 2> users;
  };

  std::vector<VarInfo> vars;
  /// Number + 1 by DenseId (0: not met).
  DenseIdMap<uint32_t> index;
  /// Indices of the vars defined in the expression, in definition order.
  std::vector<unsigned> defOrder;
  /// Indices of the vars read outside any VarBinding value, first-use order.
  std::vector<unsigned> outputs;

  const VarInfo *lookup(const VarNode *v) const {
    uint32_t slot = index.lookup(v->id);
    // A var made after the walk may have taken the number of one that died.
    if (slot == 0 || vars[slot - 1].var != v)
      return nullptr;
    return &vars[slot - 1];
  }
  unsigned uses(const VarNode *v) const {
    const VarInfo *info = lookup(v);
    return info ? info->useCount : 0;
  }
};

UseDefInfo computeUseDef(const ExprNode *e);

} // namespace graft

#endif // GRAFT_ANALYSIS_USEDEF_H
