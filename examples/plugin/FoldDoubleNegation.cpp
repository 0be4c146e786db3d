//===- examples/plugin/FoldDoubleNegation.cpp - An out-of-tree pass ---------===//
//
// `fold-double-negation` replaces `b = R.negative(a)` where `a = R.negative(x)`
// by `x` at b's uses (a itself stays, for dead-code-elimination). It is built
// outside graft against the installed package (CMakeLists.txt here:
// find_package(graft), graft_add_pass_plugin) and loaded with
//
//   graft opt --load-pass-plugin=./fold_double_negation.so -p fold-double-negation FILE
//
// docs/packaging.md walks through it.
//
//===----------------------------------------------------------------------===//

#include "ir/Op.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"
#include "pass/Pass.h"
#include "pass/PassPlugin.h"

#include "llvm/ADT/DenseMap.h"

using namespace graft;

namespace {

/// The operand of `binding` when it binds `R.negative(operand)`, else null.
const ExprNode *negatedOperand(const BindingNode &binding) {
  // Out-of-tree code looks the op up by name once; graft's own passes use
  // the handles of ir/ops/OpHandles.h.
  static const Op negative = getOp("relax.negative");
  if (!llvm::isa<VarBindingNode>(binding))
    return nullptr;
  const CallNode *call = asCallTo(binding.value.get(), negative);
  return call && call->args.size() == 1 ? call->args.front().get() : nullptr;
}

class DoubleNegationFolder : public ExprMutator {
public:
  explicit DoubleNegationFolder(const IRModule &module) : ExprMutator(&module) {}

  unsigned folded = 0;

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const auto *operand = llvm::dyn_cast_or_null<VarNode>(negatedOperand(*binding));
    if (!operand)
      return ExprMutator::rewriteBinding(binding);
    auto inner = negatedBy_.find(operand);
    // A var defined outside a dataflow block may not be replaced by a
    // dataflow var, which is not visible after the block.
    if (inner != negatedBy_.end() &&
        (binding->var->isDataflow() || !llvm::isa<DataflowVarNode>(inner->second.get()))) {
      remapVar(binding->var.get(), inner->second);
      ++folded;
      return llvm::Error::success(); // b's uses now read x.
    }
    negatedBy_[binding->var.get()] = lookupVar(operand);
    return ExprMutator::rewriteBinding(binding);
  }

private:
  /// a -> x for every `a = R.negative(x)` seen so far (x after remapping).
  llvm::DenseMap<const VarNode *, Expr> negatedBy_;
};

class FoldDoubleNegationPass : public FunctionPass {
public:
  FoldDoubleNegationPass() : FunctionPass("fold-double-negation") {}

  PassStatistic folded{this, "folded", "R.negative(R.negative(x)) replaced by x"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    DoubleNegationFolder folder(module());
    llvm::Expected<Function> out = folder.rewriteFunction(fn);
    if (out && out->get() != fn.get())
      folded += folder.folded;
    return out;
  }
};

void registerPasses() {
  PassInfo info;
  info.alias = "FoldDoubleNegation";
  info.summary = "Replaces R.negative(R.negative(x)) by x (an example pass plugin)";
  registerPass<FoldDoubleNegationPass>(std::move(info));
}

} // namespace

extern "C" GRAFT_PLUGIN_EXPORT GraftPassPluginInfo graftGetPassPluginInfo() {
  return {GRAFT_PASS_PLUGIN_API_VERSION, "fold-double-negation", "0.1", registerPasses};
}
