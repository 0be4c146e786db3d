//===- transforms/RemoveDeviceAsserts.cpp - Drop checks on device values ----===//
//
// An `R.assert_op` whose condition is a tensor on a device must read that
// tensor back to the host, and TVM-style lowering would otherwise turn it into
// a device assert that breaks the CUDA context when it fires (a lesson of CUDA-graph runtimes,
// docs/passes.md; the distribution argument checks). The pass removes such asserts, and the pure
// computation that existed only to feed them, before a CUDA build.
//
// Kept: asserts on host values (`R.prim_value`, shapes, a Prim var), asserts
// on a tensor placed on a CPU vdevice, and any math that something else
// still reads. A removed assert whose (void) result is still read becomes
// an empty tuple.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/Analyses.h"

#include "ir/Op.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseSet.h"

using namespace graft;

static constexpr const char *kPassName = "remove-device-asserts";

namespace {

bool isCpuVDevice(const VDeviceNode *vdevice) {
  if (!vdevice)
    return false;
  llvm::StringRef kind = vdevice->targetKind;
  return kind == "llvm" || kind == "c" || kind == "cpu";
}

/// An assert whose condition lives on a device (a tensor without a CPU
/// vdevice).
bool isDeviceAssert(const BindingNode &binding) {
  const CallNode *call = asCallTo(binding.value.get(), ops::assertOp());
  if (!call || call->args.empty())
    return false;
  const auto *cond = llvm::dyn_cast_or_null<TensorSInfoNode>(call->args[0]->sinfo.get());
  return cond && !isCpuVDevice(cond->vdevice.get());
}

/// A binding that can go once nothing reads its var: a pure value without
/// nested control flow. match_casts are checks and stay.
bool isRemovableMath(const BindingNode &binding) {
  if (!llvm::isa<VarBindingNode>(binding))
    return false;
  const ExprNode *value = binding.value.get();
  if (const auto *call = llvm::dyn_cast<CallNode>(value))
    return !isImpureCall(*call);
  return isLeaf(value) || llvm::isa<TupleNode>(value) || llvm::isa<TupleGetItemNode>(value);
}

/// What happens to the bindings of one function.
struct Plan {
  llvm::DenseSet<const BindingNode *> drop;
  /// Removed asserts whose result is still read: bound to `()` instead.
  llvm::DenseSet<const BindingNode *> voided;
  int64_t removed = 0;
};

/// Removes the device asserts, then sweeps backwards through what they read:
/// a binding whose last reader went is removed in turn. A work list keeps
/// the sweep iterative and each binding is released at most once, so the
/// cost is linear in the function.
Plan planRemoval(const BindingFacts &info) {
  Plan plan;
  llvm::DenseMap<const VarNode *, unsigned> uses = info.uses;
  llvm::SmallVector<const BindingNode *, 16> released;
  for (const BindingNode *binding : info.bindings) {
    if (!isDeviceAssert(*binding))
      continue;
    ++plan.removed;
    if (uses.lookup(binding->var.get()) == 0)
      plan.drop.insert(binding);
    else
      plan.voided.insert(binding);
    released.push_back(binding);
  }
  llvm::SmallVector<const VarNode *, 8> reads;
  while (!released.empty()) {
    const BindingNode *binding = released.pop_back_val();
    reads.clear();
    collectBindingUses(binding, reads);
    for (const VarNode *var : reads) {
      unsigned &n = uses[var];
      if (n == 0 || --n != 0)
        continue;
      const BindingNode *def = info.definition(var);
      if (!def || !isRemovableMath(*def) || !plan.drop.insert(def).second)
        continue;
      released.push_back(def);
    }
  }
  return plan;
}

class AssertRemover : public ExprMutator {
public:
  AssertRemover(const IRModule *module, const Plan &plan) : ExprMutator(module), plan_(plan) {}

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    if (plan_.drop.count(binding))
      return llvm::Error::success();
    if (!plan_.voided.count(binding))
      return ExprMutator::rewriteBinding(binding);
    llvm::Expected<Expr> empty = builder_.normalize(tupleExpr({}));
    if (!empty)
      return empty.takeError();
    return builder_.emitBinding(
        make<VarBindingNode>(binding->var, std::move(*empty), binding->loc));
  }

private:
  const Plan &plan_;
};

class RemoveDeviceAssertsPass : public FunctionPass {
public:
  RemoveDeviceAssertsPass() : FunctionPass(kPassName) {}

  PassStatistic removed{this, "removed", "bindings removed (asserts and what only fed them)"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    Plan plan = planRemoval(getAnalysis<BindingFactsAnalysis>());
    if (plan.removed == 0)
      return fn;
    AssertRemover remover(&module(), plan);
    llvm::Expected<Function> out = remover.rewriteFunction(fn);
    if (out)
      removed += plan.removed;
    return out;
  }
};

} // namespace

void graft::registerRemoveDeviceAssertsPass() {
  PassInfo info;
  info.alias = "RemoveDeviceAsserts";
  info.summary = "Removes R.assert_op checks on device tensors and the pure math that only fed "
                 "them; host checks stay";
  info.preconditions = "none (only removes bindings; a removed assert still read becomes ())";
  registerPass<RemoveDeviceAssertsPass>(std::move(info));
}
