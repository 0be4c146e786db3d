//===- transforms/LoweringSupport.cpp - Helpers of the VM lowering passes ---===//

#include "transforms/LoweringSupport.h"

#include "pass/Pass.h"

#include "ir/AttrKeys.h"
#include "ir/BlockBuilder.h"
#include "ir/Visitor.h"

using namespace graft;

bool graft::hasForcePure(const FunctionNode &fn) {
  const AttrValue *v = fn.attr(kForcePureAttr);
  if (!v)
    return false;
  if (v->kind() == AttrValue::Kind::Bool)
    return v->getBool();
  return v->kind() == AttrValue::Kind::Int && v->getInt() != 0;
}

Expr graft::externCall(llvm::StringRef symbol, std::vector<Expr> args,
                       std::vector<StructInfo> sinfoArgs) {
  return make<CallNode>(make<ExternFuncNode>(symbol.str()), std::move(args), nullptr,
                        std::move(sinfoArgs));
}

Function graft::withFunctionAttrs(const FunctionNode &fn, Attrs attrs) {
  return make<FunctionNode>(fn.params, fn.body, fn.retSInfo, fn.isPure, std::move(attrs), fn.loc,
                            fn.checkWellFormed);
}

llvm::Error graft::needsError(llvm::StringRef pass, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "pass " + pass + " needs " + what);
}

namespace {

/// Finds the first call that would become impure where an impure call may not
/// go: in a dataflow block, or in a pure function without force_pure.
class ImpureSiteFinder : public ExprVisitor {
public:
  explicit ImpureSiteFinder(llvm::function_ref<bool(const CallNode &)> becomesImpure)
      : becomesImpure_(becomesImpure) {}

  std::string problem;

  void visitFunction(const FunctionNode *fn) override {
    bool saved = functionAllowsImpure_;
    functionAllowsImpure_ = !fn->isPure || hasForcePure(*fn);
    ExprVisitor::visitFunction(fn);
    functionAllowsImpure_ = saved;
  }
  void visitBlock(const BindingBlockNode *block) override {
    bool saved = inDataflow_;
    inDataflow_ = block->isDataflow;
    ExprVisitor::visitBlock(block);
    inDataflow_ = saved;
  }
  void visitIf(const IfNode *ifNode) override {
    // Branches are never dataflow, whatever block the If sits in.
    bool saved = inDataflow_;
    inDataflow_ = false;
    ExprVisitor::visitIf(ifNode);
    inDataflow_ = saved;
  }
  void visitCall(const CallNode *call) override {
    ExprVisitor::visitCall(call);
    if (!problem.empty() || !becomesImpure_(*call))
      return;
    std::string what = callName(*call);
    if (inDataflow_)
      problem = what + " outside dataflow blocks (run to-non-dataflow first)";
    else if (!functionAllowsImpure_)
      problem = "every function with " + what +
                " to be impure or relax.force_pure (run remove-purity-checking first)";
  }

private:
  static std::string callName(const CallNode &call) {
    if (const OpInfo *info = call.opInfo())
      return ("R." + info->scriptName()).str();
    return "a DPS call";
  }

  llvm::function_ref<bool(const CallNode &)> becomesImpure_;
  bool inDataflow_ = false;
  bool functionAllowsImpure_ = true;
};

} // namespace

llvm::Error
graft::checkImpureLoweringSites(const IRModule &module, llvm::StringRef pass,
                                llvm::function_ref<bool(const CallNode &)> becomesImpure) {
  ImpureSiteFinder finder(becomesImpure);
  for (const ModuleEntry &entry : module.entries()) {
    const FunctionNode *fn = entry.asFunction();
    if (!fn || isPrimitiveFunction(*fn)) // A fused kernel's definition is not lowered.
      continue;
    finder.visitExpr(fn);
    if (!finder.problem.empty())
      return needsError(pass, finder.problem);
  }
  return llvm::Error::success();
}
