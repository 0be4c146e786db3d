//===- analysis/UseDef.cpp --------------------------------------------------===//

#include "analysis/UseDef.h"

#include "ir/Visitor.h"

#include "llvm/ADT/DenseSet.h"

using namespace graft;

namespace {

constexpr unsigned kNone = ~0u;

class UseDefCollector : public ExprVisitor {
public:
  UseDefInfo info;

  void visitVarDef(const VarNode *var, const BindingNode *binding) override {
    unsigned idx = indexOf(var);
    UseDefInfo::VarInfo &v = info.vars[idx];
    if (v.defined)
      return;
    v.defined = true;
    v.binding = binding;
    info.defOrder.push_back(idx);
  }

  void visitVarUse(const VarNode *var) override {
    unsigned idx = indexOf(var);
    UseDefInfo::VarInfo &v = info.vars[idx];
    ++v.useCount;
    if (user_ == kNone) {
      if (outputSet_.insert(idx).second)
        info.outputs.push_back(idx);
      return;
    }
    if (!v.users.empty() && v.users.back() == user_)
      return;
    // Inside a flat value (a call, a tuple) repeated reads are adjacent;
    // an if or a closure interleaves its own users, so a set decides there.
    if (!flat_ && !pairs_.insert({idx, user_}).second)
      return;
    v.users.push_back(user_);
  }

  void visitVarBinding(const VarBindingNode *binding) override {
    unsigned savedUser = user_;
    bool savedFlat = flat_;
    user_ = indexOf(binding->var.get());
    const ExprNode *value = binding->value.get();
    flat_ = savedFlat && !llvm::isa_and_nonnull<IfNode>(value) &&
            !llvm::isa_and_nonnull<FunctionNode>(value) &&
            !llvm::isa_and_nonnull<SeqExprNode>(value);
    ExprVisitor::visitVarBinding(binding);
    user_ = savedUser;
    flat_ = savedFlat;
  }

  void visitFunction(const FunctionNode *fn) override {
    unsigned saved = user_;
    user_ = kNone;
    ExprVisitor::visitFunction(fn);
    user_ = saved;
  }

private:
  unsigned indexOf(const VarNode *var) {
    uint32_t &slot = info.index[var->id];
    if (slot == 0) {
      info.vars.emplace_back();
      info.vars.back().var = var;
      slot = info.vars.size();
    }
    return slot - 1;
  }

  unsigned user_ = kNone;
  bool flat_ = true;
  llvm::DenseSet<unsigned> outputSet_;
  llvm::DenseSet<std::pair<unsigned, unsigned>> pairs_;
};

} // namespace

/// The top-level vars of a function, known from block sizes without a walk:
/// reserving for them spares regrowing 200k-entry vectors.
static size_t expectedVars(const ExprNode *e) {
  const auto *fn = llvm::dyn_cast_or_null<FunctionNode>(e);
  if (!fn || !fn->body)
    return 0;
  size_t n = fn->params.size();
  for (const BindingBlock &block : fn->body->blocks)
    n += block->bindings.size();
  return n;
}

UseDefInfo graft::computeUseDef(const ExprNode *e) {
  UseDefCollector collector;
  size_t expected = expectedVars(e);
  collector.info.vars.reserve(expected);
  collector.info.defOrder.reserve(expected);
  collector.visitExpr(e);
  return std::move(collector.info);
}
