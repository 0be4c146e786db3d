//===- analysis/Liveness.h - Last use of each var in a SeqExpr --*- C++ -*-===//
//
// The last use of every var read inside a SeqExpr, in evaluation order: the
// binding whose evaluation reads it last, or the SeqExpr's result. Bindings
// inside `if` branches take part in the order (then-branch before
// else-branch), so a var last read inside a branch has its last use at that
// inner binding; a read in a branch's result counts as a read by the binding
// of the `if`. A nested function reads its captured vars where it is
// defined (its binding), since the closure holds them from there on.
//
// This is the collection kill-after-last-use is driven by (TVM
// `src/relax/transform/kill_after_last_use.cc`).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_LIVENESS_H
#define GRAFT_ANALYSIS_LIVENESS_H

#include "ir/Expr.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace graft {

struct LivenessInfo {
  /// Every binding of the SeqExpr and of its if branches, in evaluation
  /// order (the bindings of nested functions are not included).
  std::vector<const BindingNode *> bindingOrder;
  /// Vars read in the SeqExpr: the binding of the last read, or null when
  /// the last read is the SeqExpr's result. Vars never read are absent.
  llvm::DenseMap<const VarNode *, const BindingNode *> lastUse;

  bool isOutput(const VarNode *v) const {
    auto it = lastUse.find(v);
    return it != lastUse.end() && it->second == nullptr;
  }
};

LivenessInfo computeLastUses(const SeqExprNode &seq);

} // namespace graft

#endif // GRAFT_ANALYSIS_LIVENESS_H
