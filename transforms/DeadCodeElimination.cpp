//===- transforms/DeadCodeElimination.cpp - Remove unused code --------------===//
//
// `dead-code-elimination` (TVM's DeadCodeElimination, TVM
// `src/relax/transform/dead_code_elimination.cc`):
//
//  1. Functions not reachable from the entries through GlobalVar references
//     (a call in a PrimFunc's TIR body included) are removed. Entries: the `entry-functions`
//     option, every ExternFunc and every function with external linkage (a `global_symbol`).
//     Nothing is removed when a reachable function refers to a GlobalVar the module lacks (the call
//     graph is then incomplete).
//  2. In every Relax function (nested functions and `if` branches included),
//     VarBindings whose var is unused are removed, to a fixpoint. Roots: vars
//     read outside any VarBinding value (results, match_cast values) and the
//     vars of bindings whose value contains an impure call. match_cast
//     bindings stay: they are runtime checks. A function without nested
//     control flow or closures is decided in one backward sweep over its
//     bindings; the others through the use-def graph.
//  3. Step 1 again, since step 2 may have removed the last call to a
//     function.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/Analyses.h"
#include "analysis/Purity.h"
#include "ir/AttrKeys.h"
#include "ir/TirBody.h"
#include "ir/Visitor.h"

#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace graft;

static constexpr const char *kPassName = "dead-code-elimination";

namespace {

//===----------------------------------------------------------------------===//
// Unreachable functions.
//===----------------------------------------------------------------------===//

/// The functions a function refers to: by GlobalVar, or as the Primitive
/// function a fused kernel call (`graft.fused.<name>`) runs.
class GlobalRefCollector : public ExprVisitor {
public:
  explicit GlobalRefCollector(const IRModule &module) : module_(module) {}
  std::vector<std::string> names;
  void visitGlobalVar(const GlobalVarNode *gv) override { names.push_back(gv->name); }
  void visitExternFunc(const ExternFuncNode *f) override {
    llvm::StringRef fused = fusedFunctionOf(f->symbol);
    if (!fused.empty() && module_.lookup(fused))
      names.push_back(fused.str());
  }

private:
  const IRModule &module_;
};

bool hasExternalLinkage(const ModuleEntry &entry) {
  if (const FunctionNode *fn = entry.asFunction())
    return !fn->globalSymbol().empty();
  if (entry.asExtern())
    return true;
  if (const PrimFuncNode *pf = entry.asPrimFunc())
    return pf->attrs && pf->attrs->lookup("global_symbol");
  return false;
}

/// Removes the functions no entry reaches; returns how many.
unsigned removeUnreachable(IRModule &module, const llvm::StringSet<> &entries) {
  llvm::StringSet<> reachable;
  std::vector<std::string> work;
  for (const ModuleEntry &e : module.entries())
    if (entries.count(e.gvar->name) && reachable.insert(e.gvar->name).second)
      work.push_back(e.gvar->name);
  // Once every function is reached, nothing can be removed: the remaining
  // walks (each a full pass over a function body) are skipped. A module
  // whose functions are all entries is not walked at all.
  // Only names of the module enter `reachable`, so its size tells when all
  // are reached.
  while (!work.empty() && reachable.size() < module.entries().size()) {
    std::string name = std::move(work.back());
    work.pop_back();
    const ModuleEntry *entry = module.lookup(name);
    GlobalRefCollector refs(module);
    if (const FunctionNode *fn = entry->asFunction())
      refs.visitExpr(fn);
    else if (const PrimFuncNode *pf = entry->asPrimFunc(); pf && pf->body)
      // A PrimFunc body kept as tokens counts no use (docs/text-format.md).
      tir::forEachCalledFunction(
          *pf->body, [&](llvm::StringRef callee) { refs.names.push_back(callee.str()); });
    for (std::string &callee : refs.names) {
      if (!module.lookup(callee))
        return 0; // A callee outside the module: the graph is incomplete.
      if (reachable.insert(callee).second)
        work.push_back(std::move(callee));
    }
  }
  std::vector<std::string> dead;
  for (const ModuleEntry &e : module.entries())
    if (!reachable.count(e.gvar->name))
      dead.push_back(e.gvar->name);
  for (const std::string &name : dead)
    module.remove(name);
  return dead.size();
}

//===----------------------------------------------------------------------===//
// Unused bindings.
//===----------------------------------------------------------------------===//

/// Marks the vars an expression reads as live (or, with `mark` off, only
/// looks), and notes a nested If, SeqExpr or Function: their bindings read
/// vars on behalf of other vars, which one backward sweep does not follow.
class ReadMarker : public ExprVisitor {
public:
  explicit ReadMarker(DenseIdBits &live) : live_(live) {}
  bool mark = true;
  bool nested = false;

  void visitVarUse(const VarNode *var) override {
    if (mark)
      live_.insert(var->id);
  }
  void visitIf(const IfNode *) override { nested = true; }
  void visitSeqExpr(const SeqExprNode *) override { nested = true; }
  void visitFunction(const FunctionNode *) override { nested = true; }

private:
  DenseIdBits &live_;
};

/// Starts loading the nodes a backward sweep meets next (the binding 8
/// before `i`, the var and value of the one 4 before), as
/// ExprVisitor::visitBlock does forward.
void prefetchBackward(const std::vector<Binding> &bindings, size_t i) {
  if (i >= 8)
    __builtin_prefetch(bindings[i - 8].get());
  if (i >= 4)
    if (const BindingNode *b = bindings[i - 4].get()) {
      __builtin_prefetch(b->var.get());
      __builtin_prefetch(b->value.get());
    }
}

/// The VarBindings of a function without nested control flow or closures
/// whose vars nothing live reads, in one backward sweep over its bindings: a
/// var is read only after its binding, so when the sweep reaches a binding,
/// every reader of its var has been decided. Live are the vars the result
/// and match_casts read, the vars of impure bindings, and what a live binding
/// reads. The live set is a bit per DenseId; no per-var record, no use-def
/// graph: at 200k bindings those were 10 MiB walked at random, where this
/// touches only the function's own nodes once (docs/performance.md).
/// std::nullopt when the function nests an If, SeqExpr or Function.
std::optional<DenseIdBits> deadVarsBySweep(const FunctionNode &fn) {
  DenseIdBits live, dead;
  if (!fn.body)
    return dead;
  live.reserveForLiveIds();
  ReadMarker marker(live);
  marker.visitExpr(fn.body->body.get());
  const std::vector<BindingBlock> &blocks = fn.body->blocks;
  for (size_t b = blocks.size(); b-- > 0 && !marker.nested;) {
    const std::vector<Binding> &bindings = blocks[b]->bindings;
    for (size_t i = bindings.size(); i-- > 0 && !marker.nested;) {
      prefetchBackward(bindings, i);
      const BindingNode *binding = bindings[i].get();
      const auto *vb = llvm::dyn_cast<VarBindingNode>(binding);
      // match_cast values are always read (the binding stays).
      marker.mark = !vb || live.contains(vb->var->id) || containsImpureCall(vb->value.get());
      if (!marker.mark)
        dead.insert(vb->var->id);
      // A dead value is still looked at: a closure in it would be a root.
      marker.visitExpr(binding->value.get());
    }
  }
  if (marker.nested)
    return std::nullopt;
  return dead;
}

/// The VarBindings of `fn` whose vars nothing live reads (TVM's
/// RemoveAllUnused), for any function, nested ones included: a work list
/// over the use-def graph instead of TVM's repeated sweeps, where a var
/// dies when its last user dies. Everything is indexed by the use-def
/// numbering, so the cost is linear in the function's size.
DenseIdBits deadVarsByUseDef(const UseDefInfo &info) {
  size_t n = info.vars.size();
  std::vector<char> live(n, 0), dead(n, 0);
  for (unsigned i : info.outputs)
    live[i] = 1;
  std::vector<unsigned> userCount(n, 0);
  // Reads of each user, as one flat array (CSR): reads[start[u]..start[u+1]).
  std::vector<unsigned> start(n + 1, 0);
  for (unsigned v = 0; v < n; ++v) {
    const UseDefInfo::VarInfo &vi = info.vars[v];
    userCount[v] = vi.users.size();
    for (unsigned u : vi.users)
      ++start[u + 1];
  }
  for (size_t u = 0; u < n; ++u)
    start[u + 1] += start[u];
  std::vector<unsigned> reads(start[n]), fill(start.begin(), start.end() - 1);
  for (unsigned v = 0; v < n; ++v)
    for (unsigned u : info.vars[v].users)
      reads[fill[u]++] = v;

  // A binding whose value runs an impure call is a root. Only a var whose
  // users are all gone can die, so purity is asked of those alone (a second
  // walk over every value would cost as much as the use-def walk).
  auto dies = [&](unsigned v) {
    const auto *vb = llvm::dyn_cast_or_null<VarBindingNode>(info.vars[v].binding);
    return !live[v] && !dead[v] && info.vars[v].defined &&
           !(vb && containsImpureCall(vb->value.get()));
  };
  std::vector<unsigned> work;
  for (unsigned v : info.defOrder)
    if (userCount[v] == 0 && dies(v)) {
      dead[v] = 1;
      work.push_back(v);
    }
  while (!work.empty()) {
    unsigned d = work.back();
    work.pop_back();
    for (unsigned i = start[d]; i < start[d + 1]; ++i) {
      unsigned v = reads[i];
      if (userCount[v] > 0 && --userCount[v] == 0 && dies(v)) {
        dead[v] = 1;
        work.push_back(v);
      }
    }
  }
  // Only VarBindings are removed; params and match_casts stay whatever.
  DenseIdBits removable;
  for (unsigned v : info.defOrder)
    if (dead[v] && llvm::isa_and_nonnull<VarBindingNode>(info.vars[v].binding))
      removable.insert(info.vars[v].var->id);
  return removable;
}

/// Drops the VarBindings whose var is in `dead` (by DenseId: every var of
/// the function being rewritten is alive, so no two share a number).
class UnusedBindingRemover : public ExprMutator {
public:
  UnusedBindingRemover(const IRModule *module, DenseIdBits dead)
      : ExprMutator(module), dead_(std::move(dead)) {}
  unsigned removed = 0;

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    if (llvm::isa<VarBindingNode>(binding) && dead_.contains(binding->var->id)) {
      ++removed;
      return llvm::Error::success();
    }
    return ExprMutator::rewriteBinding(binding);
  }

private:
  DenseIdBits dead_;
};

class DeadCodeEliminationPass : public ModulePass {
public:
  DeadCodeEliminationPass() : ModulePass(kPassName) {}

  PassOption<std::vector<std::string>> entryFunctions{
      this, "entry-functions",
      "Functions kept as roots besides every externally visible function and ExternFunc"};
  PassStatistic removedFunctions{this, "removed-functions", "unreachable functions removed"};
  PassStatistic removedBindings{this, "removed-bindings", "unused bindings removed"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) override {
    llvm::StringSet<> entries;
    for (const std::string &name : entryFunctions.getValue()) {
      if (!module.lookup(name))
        return llvm::make_error<llvm::StringError>(
            "pass dead-code-elimination needs entry function '" + name + "' to be in the module",
            llvm::inconvertibleErrorCode());
      entries.insert(name);
    }
    for (const ModuleEntry &e : module.entries())
      if (hasExternalLinkage(e))
        entries.insert(e.gvar->name);

    unsigned functions = removeUnreachable(module, entries);
    unsigned bindings = 0;
    llvm::Expected<bool> changed =
        rewriteFunctions(module, [&](const GlobalVar &gvar, const Function &fn) {
          return removeUnusedBindings(module, gvar->name, fn, bindings);
        });
    if (!changed)
      return changed.takeError();
    functions += removeUnreachable(module, entries);
    if (functions)
      removedFunctions += functions;
    if (bindings)
      removedBindings += bindings;
    return functions + bindings > 0;
  }

private:
  llvm::Expected<Function> removeUnusedBindings(const IRModule &module, llvm::StringRef name,
                                                const Function &fn, unsigned &removed) {
    std::optional<DenseIdBits> swept = deadVarsBySweep(*fn);
    DenseIdBits dead =
        swept ? std::move(*swept) : deadVarsByUseDef(analyses().get<UseDefAnalysis>(name, *fn));
    if (dead.empty())
      return fn;
    UnusedBindingRemover remover(&module, std::move(dead));
    llvm::Expected<Function> out = remover.rewriteFunction(fn);
    if (out)
      removed += remover.removed;
    return out;
  }
};

} // namespace

void graft::registerDeadCodeEliminationPass() {
  PassInfo info;
  info.alias = "DeadCodeElimination";
  info.summary = "Removes unreachable functions and unused pure bindings";
  info.preconditions =
      "none (any well-formed module; entry-functions must name functions of the module)";
  registerPass<DeadCodeEliminationPass>(std::move(info));
}
