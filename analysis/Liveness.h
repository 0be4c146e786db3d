//===- analysis/Liveness.h - Last use of each var in a SeqExpr --*- C++ -*-===//
//
// The last use of every var read inside a SeqExpr, in evaluation order: the
// binding whose evaluation reads it last, or the SeqExpr's result. Bindings
// inside `if` branches take part in the order (then-branch before
// else-branch), so a var last read inside a branch has its last use at that
// inner binding; a read in a branch's result counts as a read by the binding
// of the `if`. A nested function reads its captured vars where it is
// defined (its binding), since the closure holds them from there on. The
// argument of a kill op (`R.memory.kill_tensor`, `R.memory.kill_storage`,
// `R.vm.kill_object`) is not a read: a kill ends a value's life.
//
// lastUseIn() gives the same facts as seen from one sequence (the analysed
// one or an `if` branch in it): an `if` binding of that sequence is one
// read of every var its branches read. kill-after-last-use is driven by it
// (TVM `src/relax/transform/kill_after_last_use.cc`); it is the one
// last-use computation of graft.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_LIVENESS_H
#define GRAFT_ANALYSIS_LIVENESS_H

#include "ir/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Optional.h"

#include <vector>

namespace graft {

struct LivenessInfo {
  /// Every binding of the SeqExpr and of its if branches, in evaluation
  /// order (the bindings of nested functions are not included).
  std::vector<const BindingNode *> bindingOrder;
  /// Vars read in the SeqExpr: the binding of the last read, or null when
  /// the last read is the SeqExpr's result. Vars never read are absent.
  llvm::DenseMap<const VarNode *, const BindingNode *> lastUse;

  /// For each binding inside an `if` branch: the binding of that `if` and
  /// the branch that holds it. The analysed sequence's own bindings are
  /// absent.
  struct Nesting {
    const BindingNode *ifBinding;
    const SeqExprNode *branch;
  };
  llvm::DenseMap<const BindingNode *, Nesting> nesting;
  /// The analysed sequence.
  const SeqExprNode *root = nullptr;

  bool isOutput(const VarNode *v) const {
    auto it = lastUse.find(v);
    return it != lastUse.end() && it->second == nullptr;
  }

  /// The last read of `v`, a var bound in `seq` (the analysed sequence or an
  /// `if` branch inside it), as seen from `seq`: the binding of `seq` whose
  /// evaluation reads `v` last, directly or inside the branches of an `if`
  /// it binds; null when `seq`'s result reads it last; None when nothing
  /// reads it.
  llvm::Optional<const BindingNode *> lastUseIn(const VarNode *v, const SeqExprNode *seq) const;
};

LivenessInfo computeLastUses(const SeqExprNode &seq);

} // namespace graft

#endif // GRAFT_ANALYSIS_LIVENESS_H
