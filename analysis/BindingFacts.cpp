//===- analysis/BindingFacts.cpp - Definitions and use counts ---------------===//

#include "analysis/BindingFacts.h"

#include "ir/Visitor.h"

using namespace graft;

namespace {

class FactCollector : public ExprVisitor {
public:
  explicit FactCollector(BindingFacts &info) : info_(info) {}

  bool wantsStructInfo() const override { return true; }

  void visitBlock(const BindingBlockNode *block) override {
    // Blocks nest through If branches and nested functions.
    const BindingBlockNode *outer = current_;
    current_ = block;
    ExprVisitor::visitBlock(block);
    current_ = outer;
  }

  void visitVarDef(const VarNode *var, const BindingNode *binding) override {
    if (!binding)
      return;
    info_.def[var] = binding;
    info_.blockOf[binding] = current_;
    info_.bindings.push_back(binding);
  }

  void visitVarUse(const VarNode *var) override { ++info_.uses[var]; }

  void visitPrimExpr(const PrimExprNode *e, bool) override {
    forEachTirVar(e, [&](const TirVarNode *v) { ++info_.tirMentions[v]; });
  }

private:
  BindingFacts &info_;
  const BindingBlockNode *current_ = nullptr;
};

class UseLister : public ExprVisitor {
public:
  explicit UseLister(llvm::SmallVectorImpl<const VarNode *> &out) : out_(out) {}
  bool wantsStructInfo() const override { return true; }
  void visitVarUse(const VarNode *var) override { out_.push_back(var); }

private:
  llvm::SmallVectorImpl<const VarNode *> &out_;
};

} // namespace

BindingFacts BindingFacts::build(const FunctionNode &fn) {
  BindingFacts info;
  FactCollector collector(info);
  collector.visitExpr(&fn);
  return info;
}

const ExprNode *BindingFacts::boundValue(const ExprNode *e) const {
  const auto *var = llvm::dyn_cast_or_null<VarNode>(e);
  if (!var)
    return nullptr;
  const auto *binding = llvm::dyn_cast_or_null<VarBindingNode>(def.lookup(var));
  return binding ? binding->value.get() : nullptr;
}

void graft::collectBindingUses(const BindingNode *binding,
                               llvm::SmallVectorImpl<const VarNode *> &out) {
  UseLister lister(out);
  lister.visitBinding(binding);
}
