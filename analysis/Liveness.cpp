//===- analysis/Liveness.cpp ------------------------------------------------===//

#include "analysis/Liveness.h"

#include "analysis/FreeVars.h"
#include "ir/Visitor.h"

using namespace graft;

namespace {

class LastUseCollector : public ExprVisitor {
public:
  LivenessInfo info;

  void visitVarUse(const VarNode *var) override { info.lastUse[var] = current_; }

  void visitVarBinding(const VarBindingNode *binding) override {
    enter(binding);
    ExprVisitor::visitVarBinding(binding);
    current_ = saved_.pop_back_val();
  }
  void visitMatchCast(const MatchCastNode *binding) override {
    enter(binding);
    ExprVisitor::visitMatchCast(binding);
    current_ = saved_.pop_back_val();
  }

  /// A closure reads its captures when it is created, not when it runs.
  void visitFunction(const FunctionNode *fn) override {
    for (const VarNode *v : freeVars(fn))
      visitVarUse(v);
  }

private:
  void enter(const BindingNode *binding) {
    info.bindingOrder.push_back(binding);
    saved_.push_back(current_);
    current_ = binding;
  }

  const BindingNode *current_ = nullptr;
  llvm::SmallVector<const BindingNode *, 8> saved_;
};

} // namespace

LivenessInfo graft::computeLastUses(const SeqExprNode &seq) {
  LastUseCollector collector;
  collector.visitSeqExpr(&seq);
  return std::move(collector.info);
}
