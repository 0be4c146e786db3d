//===- transforms/TestDropBinding.cpp - A pass that breaks IR on purpose ----===//
//
// `test-drop-binding` deletes the first binding (in the top-level blocks of
// the first function that has one) whose var is still used. It exists to
// prove that verify-each catches a broken pass and names it, the function
// and the binding.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"

#include "llvm/ADT/DenseSet.h"

using namespace graft;

namespace {

class UseCollector : public ExprVisitor {
public:
  llvm::DenseSet<const VarNode *> used;
  void visitVarUse(const VarNode *var) override { used.insert(var); }
};

/// The function without its first still-used top-level binding, or null.
Function dropFirstUsedBinding(const FunctionNode &fn) {
  UseCollector uses;
  uses.visitExpr(&fn);
  std::vector<BindingBlock> blocks = fn.body->blocks;
  for (BindingBlock &block : blocks) {
    for (size_t i = 0; i < block->bindings.size(); ++i) {
      if (!uses.used.count(block->bindings[i]->var.get()))
        continue;
      std::vector<Binding> kept = block->bindings;
      kept.erase(kept.begin() + i);
      block = make<BindingBlockNode>(std::move(kept), block->isDataflow, block->loc);
      SeqExpr body = make<SeqExprNode>(std::move(blocks), fn.body->body, fn.body->sinfo);
      auto out = draft<FunctionNode>(fn.params, body, fn.retSInfo, fn.isPure, fn.attrs, fn.loc);
      out->checkWellFormed = fn.checkWellFormed;
      return out.publish();
    }
  }
  return nullptr;
}

class TestDropBindingPass : public FunctionPass {
public:
  TestDropBindingPass() : FunctionPass("test-drop-binding") {}

  PassStatistic dropped{this, "dropped", "bindings dropped"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    if (dropped.value())
      return fn; // One binding in the whole module.
    Function out = dropFirstUsedBinding(*fn);
    if (!out)
      return fn;
    ++dropped;
    return out;
  }
};

} // namespace

void graft::registerTestDropBindingPass() {
  PassInfo info;
  info.summary = "Deletes the first binding whose var is still used (breaks IR on purpose)";
  info.testOnly = true;
  registerPass<TestDropBindingPass>(std::move(info));
}
