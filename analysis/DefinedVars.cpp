//===- analysis/DefinedVars.cpp ---------------------------------------------===//

#include "analysis/DefinedVars.h"

#include "ir/Visitor.h"

using namespace graft;

namespace {
class DefinitionCollector : public ExprVisitor {
public:
  std::vector<DefinedVar> out;
  void visitVarDef(const VarNode *var, const BindingNode *binding) override {
    out.push_back({var, binding});
  }
};
} // namespace

std::vector<DefinedVar> graft::definedVars(const ExprNode *e) {
  DefinitionCollector collector;
  collector.visitExpr(e);
  return std::move(collector.out);
}
