//===- transforms/KillAfterLastUse.cpp - Free values after their last use -----===//
//
// `kill-after-last-use` (TVM's KillAfterLastUse, TVM `src/relax/transform/kill_after_last_use.cc`)
// releases each value right after its last use, so the VM frees memory early:
//
//  1. canonicalize-bindings runs first (canonicalizeBindings(), the pass's
//     own rewrite, so its logic lives in one place): aliases `y = x` fold into
//     x, so a kill hits the last holder of a value rather than a copy.
//  2. Unused trivial bindings that canonicalization left (`y = x`, a
//     match_cast to x's own struct info) are dropped.
//  3. In every sequence (function body, `if` branch, local function body),
//     after the binding that last uses a var bound in that sequence, it emits
//     `_ = R.memory.kill_tensor(t)` for tensors, then `R.memory.kill_storage(s)`
//     for storages (vars bound to memory/vm alloc_storage), then
//     `R.vm.kill_object(o)` for other objects, each group in binding order.
//
// Never killed: params, sequence outputs, vars already passed to a kill op,
// Func/Shape/Prim-typed vars, and (TVM #20267) every var whose
// binding VM codegen gives no register, as analysis/RegisterlessBindings.h
// lists them: `R.null_value()`, constants, shapes, strings, dtypes, void
// calls, functions. A kill op's argument is not a use.
//
// `if` (and local functions) differ from TVM on purpose. TVM stops killing
// for the rest of a sequence once it has met an `if`, and never kills an
// outer var whose last use is inside a branch. Here an `if` binding is one
// use of every outer var it reads (condition and branches), so such a var is
// killed right after the `if`, and the sequence after it gets kills as usual.
// That is safe: codegen copies a branch's result into the `if`'s own
// register, so killing a var read by a branch cannot clear the result. A var
// that a branch returns stays alive, as in TVM.
//
// Preconditions (checked before anything changes): a kill is impure, so it
// may not land in a dataflow block or in a pure function without
// `relax.force_pure`.
//
//===----------------------------------------------------------------------===//

#include "transforms/CanonicalizeBindings.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "analysis/BindingFacts.h"
#include "analysis/Liveness.h"
#include "analysis/RegisterlessBindings.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"
#include "pass/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace graft;

static constexpr const char *kPassName = "kill-after-last-use";

namespace {

enum class KillKind : uint8_t { Tensor, Storage, Object };

bool isKillCall(const ExprNode *e) {
  const OpInfo *op = calledOp(e);
  return op && op->kills;
}

bool isAllocStorage(const ExprNode *e) {
  const OpInfo *op = calledOp(e);
  return op && op->allocates == AllocKind::Storage;
}

/// `y = x`, or `y = match_cast(x, T)` with T x's own struct info.
bool isTrivialBinding(const BindingNode &b) {
  const auto *src = llvm::dyn_cast<VarNode>(b.value.get());
  if (!src)
    return false;
  const auto *cast = llvm::dyn_cast<MatchCastNode>(&b);
  return !cast || structuralEqual(cast->castSInfo.get(), src->sinfo.get());
}

/// What the kill of `var` (bound by `binding`) would be, or None when the var
/// must never be killed because of what it is.
llvm::Optional<KillKind> killKindOf(const BindingNode &binding, bool isStorage) {
  if (isStorage)
    return KillKind::Storage;
  if (!bindingHasRegister(binding))
    return llvm::None;
  const StructInfoNode *s = binding.var->sinfo.get();
  if (!s || llvm::isa<FuncSInfoNode, ShapeSInfoNode, PrimSInfoNode>(s))
    return llvm::None;
  return llvm::isa<TensorSInfoNode>(s) ? KillKind::Tensor : KillKind::Object;
}

Binding killBinding(KillKind kind, const Var &var) {
  const Op &(*const kOps[])() = {ops::memKillTensor, ops::memKillStorage, ops::vmKillObject};
  Expr call = make<CallNode>(kOps[static_cast<int>(kind)](), std::vector<Expr>{var}, nullptr,
                             std::vector<StructInfo>{}, voidSInfo());
  return make<VarBindingNode>(make<VarNode>("_", voidSInfo()), std::move(call));
}

/// Step 2: drops the trivial bindings nothing reads.
class TrivialBindingDropper : public ExprMutator {
public:
  TrivialBindingDropper(const IRModule &module, const BindingFacts &facts)
      : ExprMutator(&module), facts_(facts) {}

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    if (isTrivialBinding(*binding) && facts_.useCount(binding->var.get()) == 0)
      return llvm::Error::success();
    return ExprMutator::rewriteBinding(binding);
  }

private:
  const BindingFacts &facts_;
};

/// Step 3: inserts kills into one function, sequence by sequence, where
/// analysis/Liveness.h puts each var's last use.
class KillInserter {
public:
  explicit KillInserter(std::string fnName) : fnName_(std::move(fnName)) {}

  int64_t kills = 0;

  llvm::Expected<Function> rewriteFunction(const FunctionNode *fn) {
    bool saved = mayKill_;
    mayKill_ = !fn->isPure || hasForcePure(*fn);
    LivenessInfo liveness = computeLastUses(*fn->body);
    llvm::Expected<SeqExpr> body = rewriteSeq(fn->body.get(), liveness);
    mayKill_ = saved;
    if (!body)
      return body.takeError();
    if (body->get() == fn->body.get())
      return Function(fn);
    return make<FunctionNode>(fn->params, *body, fn->retSInfo, fn->isPure, fn->attrs, fn->loc,
                              fn->checkWellFormed);
  }

private:
  struct Entry {
    const BindingNode *binding;
    bool inDataflow;
  };

  llvm::Expected<SeqExpr> rewriteSeq(const SeqExprNode *seq, const LivenessInfo &liveness);
  llvm::Expected<Expr> rewriteNested(const Expr &value, const LivenessInfo &liveness);
  llvm::Error checkCanKill(const Entry &at) const;

  std::string fnName_;
  bool mayKill_ = true;
};

llvm::Expected<Expr> KillInserter::rewriteNested(const Expr &value, const LivenessInfo &liveness) {
  // A local function has its own liveness; `if` branches share the
  // enclosing function's.
  if (const auto *fn = llvm::dyn_cast<FunctionNode>(value.get())) {
    llvm::Expected<Function> out = rewriteFunction(fn);
    if (!out)
      return out.takeError();
    return Expr(*out);
  }
  const auto *ifNode = llvm::dyn_cast<IfNode>(value.get());
  if (!ifNode)
    return value;
  llvm::Expected<SeqExpr> thenB = rewriteSeq(ifNode->thenBranch.get(), liveness);
  if (!thenB)
    return thenB.takeError();
  llvm::Expected<SeqExpr> elseB = rewriteSeq(ifNode->elseBranch.get(), liveness);
  if (!elseB)
    return elseB.takeError();
  if (thenB->get() == ifNode->thenBranch.get() && elseB->get() == ifNode->elseBranch.get())
    return value;
  return Expr(make<IfNode>(ifNode->cond, *thenB, *elseB, ifNode->sinfo));
}

llvm::Error KillInserter::checkCanKill(const Entry &at) const {
  if (at.inDataflow)
    return needsError(kPassName, "no dataflow block where it inserts a kill (run "
                                 "to-non-dataflow first); function '" +
                                     fnName_ + "', after binding '" + at.binding->var->name + "'");
  if (!mayKill_)
    return needsError(kPassName, "function '" + fnName_ +
                                     "' to be impure or relax.force_pure (run "
                                     "remove-purity-checking first)");
  return llvm::Error::success();
}

llvm::Expected<SeqExpr> KillInserter::rewriteSeq(const SeqExprNode *seq,
                                                 const LivenessInfo &liveness) {
  // The bindings of this sequence, which vars are storages and which are
  // killed already.
  std::vector<Entry> entries;
  llvm::DenseMap<const BindingNode *, unsigned> entryOf;
  llvm::DenseSet<const VarNode *> storages, killed;
  for (const BindingBlock &block : seq->blocks)
    for (const Binding &b : block->bindings) {
      entryOf[b.get()] = entries.size();
      entries.push_back({b.get(), block->isDataflow});
      const ExprNode *value = b->value.get();
      if (isAllocStorage(value))
        storages.insert(b->var.get());
      else if (isKillCall(value))
        if (const auto *v = llvm::dyn_cast<VarNode>(llvm::cast<CallNode>(value)->args[0].get()))
          killed.insert(v);
    }

  // Kills after each binding, in binding order of the killed vars. An `if`
  // of this sequence is one use of every var of it its branches read.
  llvm::DenseMap<unsigned, llvm::SmallVector<std::pair<KillKind, Var>, 2>> after;
  for (const Entry &e : entries) {
    const VarNode *v = e.binding->var.get();
    if (killed.count(v))
      continue;
    llvm::Optional<const BindingNode *> last = liveness.lastUseIn(v, seq);
    if (!last || !*last)
      continue; // Never read, or read by the sequence's result.
    if (llvm::Optional<KillKind> kind = killKindOf(*e.binding, storages.count(v) != 0)) {
      unsigned at = entryOf.lookup(*last);
      if (llvm::Error err = checkCanKill(entries[at]))
        return err;
      after[at].push_back({*kind, e.binding->var});
    }
  }

  bool changed = !after.empty();
  std::vector<BindingBlock> blocks;
  unsigned at = 0;
  for (const BindingBlock &block : seq->blocks) {
    std::vector<Binding> out;
    for (const Binding &b : block->bindings) {
      llvm::Expected<Expr> value = rewriteNested(b->value, liveness);
      if (!value)
        return value.takeError();
      if (value->get() == b->value.get())
        out.push_back(b);
      else if (const auto *cast = llvm::dyn_cast<MatchCastNode>(b.get()))
        out.push_back(make<MatchCastNode>(b->var, *value, cast->castSInfo, b->loc));
      else
        out.push_back(make<VarBindingNode>(b->var, *value, b->loc));
      changed |= value->get() != b->value.get();
      auto here = after.find(at++);
      if (here == after.end())
        continue;
      for (KillKind kind : {KillKind::Tensor, KillKind::Storage, KillKind::Object})
        for (const auto &[k, var] : here->second)
          if (k == kind) {
            out.push_back(killBinding(kind, var));
            ++kills;
          }
    }
    if (!out.empty())
      blocks.push_back(make<BindingBlockNode>(std::move(out), block->isDataflow, block->loc));
  }
  if (!changed)
    return SeqExpr(seq);
  return make<SeqExprNode>(BlockBuilder::mergeBlocks(std::move(blocks)), seq->body, seq->sinfo);
}

class KillAfterLastUsePass : public FunctionPass {
public:
  KillAfterLastUsePass() : FunctionPass(kPassName) {}

  PassStatistic kills{this, "kills", "kill bindings inserted"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    llvm::Expected<Function> canonical = canonicalizeBindings(fn, module());
    if (!canonical)
      return llvm::make_error<llvm::StringError>("pass canonicalize-bindings failed in function '" +
                                                     functionName() +
                                                     "': " + llvm::toString(canonical.takeError()),
                                                 llvm::inconvertibleErrorCode());
    llvm::Expected<Function> dropped =
        TrivialBindingDropper(module(), BindingFacts::build(**canonical))
            .rewriteFunction(*canonical);
    if (!dropped)
      return dropped.takeError();
    KillInserter inserter(functionName().str());
    llvm::Expected<Function> out = inserter.rewriteFunction(dropped->get());
    if (out && inserter.kills)
      kills += inserter.kills;
    return out;
  }
};

} // namespace

void graft::registerKillAfterLastUsePass() {
  PassInfo info;
  info.alias = "KillAfterLastUse";
  info.summary = "Kills tensors, storages and objects right after their last use (after "
                 "canonicalizing bindings); never a var codegen keeps out of registers";
  info.preconditions = "no dataflow block and no pure function without relax.force_pure where "
                       "a kill goes (to-non-dataflow, remove-purity-checking)";
  registerPass<KillAfterLastUsePass>(std::move(info));
}
