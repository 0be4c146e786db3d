//===- transforms/RemovePurityChecking.cpp - Mark pure functions force_pure -===//
//
// `remove-purity-checking` (TVM's RemovePurityChecking, TVM
// `src/relax/transform/remove_purity_checking.cc`): the lowering passes after it replace pure ops
// by impure VM calls inside pure functions, so every pure function (nested ones included) gets
// `relax.force_pure: True`, and the purity wrappers are unwrapped:
// `R.call_pure_packed(f, args...)` becomes `f(args...)` (attrs and sinfo_args
// kept), `R.call_inplace_packed(f, args...)` becomes `f(args...)` without
// attrs, and `R.invoke_pure_closure` becomes `R.invoke_closure`.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "analysis/Purity.h"

#include "ir/AttrKeys.h"
#include "ir/Visitor.h"
#include "ir/Walk.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

static constexpr const char *kPassName = "remove-purity-checking";

namespace {

class PurityUnwrapper : public ExprMutator {
public:
  explicit PurityUnwrapper(const IRModule *module) : ExprMutator(module) {}

  int64_t unwrapped = 0;
  int64_t marked = 0;

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteCall(call);
    if (!out)
      return out;
    const auto *c = llvm::dyn_cast<CallNode>(out->get());
    if (!c)
      return out;
    Expr fresh;
    if (isCallTo(*c, ops::callPurePacked()) || isCallTo(*c, ops::callInplacePacked())) {
      if (c->args.empty())
        return out;
      std::vector<Expr> args(c->args.begin() + 1, c->args.end());
      Attrs attrs = isCallTo(*c, ops::callPurePacked()) ? c->attrs : nullptr;
      fresh = make<CallNode>(c->args[0], std::move(args), std::move(attrs), c->sinfoArgs);
    } else if (isCallTo(*c, ops::invokePureClosure())) {
      fresh = make<CallNode>(ops::invokeClosure(), c->args, c->attrs, c->sinfoArgs);
    } else {
      return out;
    }
    ++unwrapped;
    return builder_.normalize(withLoc(std::move(fresh), call->loc));
  }

  llvm::Expected<Expr> rewriteFunctionExpr(const FunctionNode *fn) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteFunctionExpr(fn);
    if (!out)
      return out;
    const auto *f = llvm::cast<FunctionNode>(out->get());
    if (!f->isPure || hasForcePure(*f))
      return out;
    ++marked;
    return Expr(
        withFunctionAttrs(*f, withAttr(f->attrs.get(), kForcePureAttr, AttrValue::boolean(true))));
  }
};

class RemovePurityCheckingPass : public FunctionPass {
public:
  RemovePurityCheckingPass() : FunctionPass(kPassName) {}

  PassStatistic forcePureMarked{this, "force-pure-marked", "functions marked relax.force_pure"};
  PassStatistic callsUnwrapped{this, "calls-unwrapped",
                               "purity-wrapper calls turned into plain calls"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    PurityUnwrapper unwrapper(&module());
    llvm::Expected<Function> out = unwrapper.rewriteFunction(fn);
    if (!out || out->get() == fn.get())
      return out;
    // An unwrapped call is impure: inside a dataflow block it would break
    // well-formedness. finalize runs to-non-dataflow first.
    bool impureInDataflow =
        containsNode<BindingBlockNode>(out->get(), [](const BindingBlockNode *b) {
          return b->isDataflow && llvm::any_of(b->bindings, [](const Binding &x) {
                   return containsImpureCall(x->value.get());
                 });
        });
    if (impureInDataflow)
      return needsError(kPassName, "no dataflow block around a purity wrapper it unwraps (run "
                                   "to-non-dataflow first); function '" +
                                       functionName() + "'");
    if (unwrapper.marked)
      forcePureMarked += unwrapper.marked;
    if (unwrapper.unwrapped)
      callsUnwrapped += unwrapper.unwrapped;
    return out;
  }
};

} // namespace

void graft::registerRemovePurityCheckingPass() {
  PassInfo info;
  info.alias = "RemovePurityChecking";
  info.summary = "Marks pure functions relax.force_pure and unwraps call_pure_packed, "
                 "call_inplace_packed and invoke_pure_closure";
  info.preconditions = "no dataflow block around a call_pure_packed, call_inplace_packed or "
                       "invoke_pure_closure (run to-non-dataflow first)";
  registerPass<RemovePurityCheckingPass>(std::move(info));
}
