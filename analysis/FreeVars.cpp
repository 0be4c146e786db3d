//===- analysis/FreeVars.cpp ------------------------------------------------===//

#include "analysis/FreeVars.h"

#include "ir/StructInfoAnalysis.h"
#include "ir/Visitor.h"

#include "llvm/ADT/DenseSet.h"

using namespace graft;

namespace {

/// Well-formed IR defines a var before any use, so one walk suffices: a use
/// of a var not yet defined is free.
class FreeVarCollector : public ExprVisitor {
public:
  explicit FreeVarCollector(bool keepAll) : keepAll_(keepAll) {}
  std::vector<const VarNode *> out;

  void visitVarDef(const VarNode *var, const BindingNode *) override {
    defined_.insert(var);
    if (keepAll_ && seen_.insert(var).second)
      out.push_back(var);
  }
  void visitVarUse(const VarNode *var) override {
    if (!keepAll_ && defined_.count(var))
      return;
    if (seen_.insert(var).second)
      out.push_back(var);
  }

private:
  bool keepAll_;
  llvm::DenseSet<const VarNode *> defined_, seen_;
};

/// Definitions are collected for the whole expression first, so the result
/// does not depend on the order in which definition sites are met.
class SymbolicVarCollector : public ExprVisitor {
public:
  bool collectingDefs = true;
  llvm::DenseSet<const TirVarNode *> defined;
  llvm::DenseSet<const TirVarNode *> seen;
  std::vector<const TirVarNode *> out;

  bool wantsStructInfo() const override { return true; }
  void visitPrimExpr(const PrimExprNode *e, bool isDefinitionSite) override {
    if (!e)
      return;
    if (collectingDefs) {
      if (isDefinitionSite)
        if (const auto *v = llvm::dyn_cast<TirVarNode>(e))
          defined.insert(v);
      return;
    }
    forEachTirVar(e, [&](const TirVarNode *v) {
      if (!defined.count(v) && seen.insert(v).second)
        out.push_back(v);
    });
  }
};

} // namespace

std::vector<const VarNode *> graft::freeVars(const ExprNode *e) {
  FreeVarCollector collector(/*keepAll=*/false);
  collector.visitExpr(e);
  return std::move(collector.out);
}

std::vector<const VarNode *> graft::allVars(const ExprNode *e) {
  FreeVarCollector collector(/*keepAll=*/true);
  collector.visitExpr(e);
  return std::move(collector.out);
}

std::vector<const TirVarNode *> graft::freeSymbolicVars(const ExprNode *e) {
  SymbolicVarCollector collector;
  collector.visitExpr(e);
  collector.collectingDefs = false;
  collector.visitExpr(e);
  return std::move(collector.out);
}
