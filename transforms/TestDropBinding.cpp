//===- transforms/TestDropBinding.cpp - A pass that breaks IR on purpose ----===//
//
// `test-drop-binding` deletes the first binding (in the top-level blocks of
// the first function that has one) whose var is still used. It exists to
// prove that verify-each catches a broken pass and names it, the function
// and the binding.
//
//===----------------------------------------------------------------------===//

#include "transforms/Pass.h"
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
      auto *out = new FunctionNode(fn.params, body, fn.retSInfo, fn.isPure, fn.attrs, fn.loc);
      out->checkWellFormed = fn.checkWellFormed;
      return Function(out);
    }
  }
  return nullptr;
}

class TestDropBindingPass : public Pass {
public:
  llvm::Expected<bool> run(IRModule &module, PassContext &ctx) override {
    for (const ModuleEntry &entry : module.entries()) {
      const FunctionNode *fn = entry.asFunction();
      if (!fn)
        continue;
      if (Function dropped = dropFirstUsedBinding(*fn)) {
        module.add(entry.gvar, dropped);
        ctx.addStat("test-drop-binding", "dropped");
        return true;
      }
    }
    return false;
  }
};

} // namespace

void graft::registerTestDropBindingPass() {
  PassInfo info;
  info.name = "test-drop-binding";
  info.summary = "Deletes the first binding whose var is still used (breaks IR on purpose)";
  info.testOnly = true;
  info.create = [](const PassOptions &) { return std::make_unique<TestDropBindingPass>(); };
  registerPass(std::move(info));
}
