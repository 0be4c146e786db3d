//===- analysis/Liveness.cpp ------------------------------------------------===//

#include "analysis/Liveness.h"

#include "analysis/FreeVars.h"
#include "ir/Op.h"
#include "ir/Visitor.h"

using namespace graft;

namespace {

class LastUseCollector : public ExprVisitor {
public:
  LivenessInfo info;

  void visitVarUse(const VarNode *var) override { info.lastUse[var] = current_; }

  void visitCall(const CallNode *call) override {
    if (!isKillCall(call))
      ExprVisitor::visitCall(call);
  }

  void visitIf(const IfNode *ifNode) override {
    visitExpr(ifNode->cond.get());
    // current_ is the if's binding here (or null for an if outside any
    // binding, which the analysed sequence's result cannot hold).
    for (const SeqExprNode *branch : {ifNode->thenBranch.get(), ifNode->elseBranch.get()}) {
      branches_.push_back({current_, branch});
      visitSeqExpr(branch);
      branches_.pop_back();
    }
  }

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
  static bool isKillCall(const CallNode *call) {
    const OpInfo *op = call->opInfo();
    return op && op->kills;
  }

  void enter(const BindingNode *binding) {
    info.bindingOrder.push_back(binding);
    if (!branches_.empty())
      info.nesting[binding] = branches_.back();
    saved_.push_back(current_);
    current_ = binding;
  }

  const BindingNode *current_ = nullptr;
  llvm::SmallVector<const BindingNode *, 8> saved_;
  llvm::SmallVector<LivenessInfo::Nesting, 4> branches_;
};

} // namespace

LivenessInfo graft::computeLastUses(const SeqExprNode &seq) {
  LastUseCollector collector;
  collector.info.root = &seq;
  collector.visitSeqExpr(&seq);
  return std::move(collector.info);
}

llvm::Optional<const BindingNode *> LivenessInfo::lastUseIn(const VarNode *v,
                                                            const SeqExprNode *seq) const {
  auto it = lastUse.find(v);
  if (it == lastUse.end())
    return llvm::None;
  // Climb from the reading binding to the enclosing binding that `seq` holds.
  const BindingNode *b = it->second;
  while (b) {
    auto nested = nesting.find(b);
    const SeqExprNode *holder = nested == nesting.end() ? root : nested->second.branch;
    if (holder == seq)
      return b;
    b = nested == nesting.end() ? nullptr : nested->second.ifBinding;
  }
  return nullptr;
}
