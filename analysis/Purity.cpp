//===- analysis/Purity.cpp --------------------------------------------------===//

#include "analysis/Purity.h"

#include "ir/AttrKeys.h"
#include "ir/Op.h"
#include "ir/Visitor.h"

using namespace graft;

namespace {

class ImpureCallFinder : public ExprVisitor {
public:
  ImpureCallFinder(const ExprNode *root, const ExprNode *self) : root_(root), self_(self) {}
  bool found = false;

  void visitCall(const CallNode *call) override {
    if (found)
      return;
    if (call->op.get() != self_ && isImpureCall(*call)) {
      found = true;
      return;
    }
    ExprVisitor::visitCall(call);
  }
  void visitFunction(const FunctionNode *fn) override {
    if (fn == root_)
      ExprVisitor::visitFunction(fn);
  }
  void visitBlock(const BindingBlockNode *block) override {
    for (const Binding &b : block->bindings) {
      if (found)
        return;
      visitBinding(b.get());
    }
  }

private:
  const ExprNode *root_;
  const ExprNode *self_;
};

} // namespace

bool graft::containsImpureCall(const ExprNode *e, const ExprNode *self) {
  ImpureCallFinder finder(e, self);
  finder.visitExpr(e);
  return finder.found;
}

FunctionPurity graft::analyzePurity(const FunctionNode &fn, const ExprNode *self) {
  FunctionPurity p;
  p.declaredPure = fn.isPure;
  if (const AttrValue *v = fn.attr(kForcePureAttr))
    p.forcePure = v->kind() == AttrValue::Kind::Bool && v->getBool();
  p.hasImpureCall = containsImpureCall(&fn, self);
  return p;
}
