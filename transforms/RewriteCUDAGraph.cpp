//===- transforms/RewriteCUDAGraph.cpp - Lift static regions into CUDA graphs ===//
//
// TVM's RewriteCUDAGraph (reference tvm-passes-and-vm.md §1). Two phases:
//
//  1. A planner walks every Relax function and, per binding block, groups
//     consecutive static bindings that start at a kernel launch into capture
//     regions, and collects the static `R.memory.alloc_storage` bindings of
//     each function into an alloc plan. It records each region's inputs
//     (vars it reads that it did not lift), symbolic-shape inputs and outputs
//     (lifted vars read outside the region).
//  2. A rewriter merges the alloc plans into one `cuda_graph_alloc`, fetched
//     with `vm.builtin.cuda_graph.get_cached_alloc`, lifts each region into a
//     de-duplicated `<fn>_cuda_graph_capture` launched through
//     `vm.builtin.cuda_graph.run_or_capture` with a module-wide index, and
//     unpacks each output at its original binding, or earlier where a later
//     launch needs it first.
//
// graft additions (docs/passes.md): a match_cast whose value reads a lifted
// var makes that var an output of its region, the open one included
// (TVM #20485); a call to an op the registry marks
// non-capturable, or to a `graft.host.*` / `vm.builtin.*` symbol, ends the
// region. For well-formed output also: a var read by a SeqExpr body or an
// `if` condition is an output; storages inside `if` branches and storages
// with a device index other than 0 stay where they are (TVM aborts or emits
// the alloc launch inside the branch).
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "analysis/FreeVars.h"
#include "ir/AttrKeys.h"
#include "ir/MapExprs.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace graft;

static constexpr const char *kPassName = "rewrite-cuda-graph";

namespace {

//===----------------------------------------------------------------------===//
// Small queries
//===----------------------------------------------------------------------===//

/// A callee or argument naming a kernel that reads device data back to the
/// host: such a call cannot sit inside a capture.
bool isHostSymbol(const ExprNode *e, const IRModule &module) {
  if (const auto *ext = llvm::dyn_cast_or_null<ExternFuncNode>(e))
    return isHostKernelSymbol(ext->symbol);
  const auto *gv = llvm::dyn_cast_or_null<GlobalVarNode>(e);
  if (!gv)
    return false;
  if (isHostKernelSymbol(gv->name))
    return true;
  const ModuleEntry *entry = module.lookup(gv->name);
  const PrimFuncNode *prim = entry ? entry->asPrimFunc() : nullptr;
  const AttrValue *sym = prim && prim->attrs ? prim->attrs->lookup("global_symbol") : nullptr;
  return sym && sym->kind() == AttrValue::Kind::String && isHostKernelSymbol(sym->getString());
}

bool isPrimFuncCallee(const CallNode &call, const IRModule &module) {
  const auto *gv = llvm::dyn_cast<GlobalVarNode>(call.op.get());
  if (!gv)
    return false;
  const ModuleEntry *entry = module.lookup(gv->name);
  return entry && entry->asPrimFunc();
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// One lifted function in the making: the alloc plan of a function or one
/// capture region.
struct Region {
  bool isAlloc = false;
  bool inDataflow = false;             ///< Some binding sits in a dataflow block.
  const FunctionNode *owner = nullptr; ///< Innermost function holding the region.
  std::string fnName;                  ///< Top-level function's name (capture naming).
  std::vector<const BindingNode *> bindings;
  std::vector<const VarNode *> inputs;
  llvm::DenseSet<const VarNode *> inputSet;
  std::vector<const TirVarNode *> tirVars;
  llvm::DenseSet<const TirVarNode *> tirVarSet;
  std::vector<const VarNode *> outputs;
  /// Index in the returned tuple; for alloc plans set by the merge.
  llvm::DenseMap<const VarNode *, unsigned> outputIndex;

  const VarNode *launchPoint() const { return bindings.front()->var.get(); }
  void markOutput(const VarNode *var) {
    if (outputIndex.try_emplace(var, static_cast<unsigned>(outputs.size())).second)
      outputs.push_back(var);
  }
  void addInput(const VarNode *var) {
    if (inputSet.insert(var).second)
      inputs.push_back(var);
  }
  void addTirVar(const TirVarNode *var) {
    if (tirVarSet.insert(var).second)
      tirVars.push_back(var);
  }
};

using VarList = llvm::SmallVector<const VarNode *, 8>;
using TirList = llvm::SmallVector<const TirVarNode *, 4>;

//===----------------------------------------------------------------------===//
// Storages that reach a return (TVM's OutputStorageCollector)
//===----------------------------------------------------------------------===//

/// Storages whose tensors reach a SeqExpr body, followed backwards through
/// var copies and tuples only (as TVM does; not through reshape, view,
/// tuple_get_item or match_cast). Such storages are never captured.
class OutputStorageCollector {
public:
  llvm::DenseSet<const VarNode *> disabled;

  void visitSeq(const SeqExprNode *seq) {
    for (const VarNode *v : freeVars(seq->body.get()))
      outputs_.insert(v);
    for (auto bi = seq->blocks.rbegin(); bi != seq->blocks.rend(); ++bi)
      for (auto it = (*bi)->bindings.rbegin(); it != (*bi)->bindings.rend(); ++it)
        visitBinding(**it);
  }

private:
  void visitBinding(const BindingNode &b) {
    const ExprNode *value = b.value.get();
    bool isOutput = outputs_.count(b.var.get()) != 0;
    if (const auto *ifNode = llvm::dyn_cast<IfNode>(value)) {
      visitSeq(ifNode->thenBranch.get());
      visitSeq(ifNode->elseBranch.get());
    } else if (const auto *fn = llvm::dyn_cast<FunctionNode>(value)) {
      visitSeq(fn->body.get());
    }
    if (!isOutput || !llvm::isa<VarBindingNode>(b))
      return;
    if (const auto *var = llvm::dyn_cast<VarNode>(value)) {
      outputs_.insert(var);
    } else if (const auto *tuple = llvm::dyn_cast<TupleNode>(value)) {
      for (const Expr &f : tuple->fields)
        if (const auto *v = llvm::dyn_cast<VarNode>(f.get()))
          outputs_.insert(v);
    } else if (const auto *call = llvm::dyn_cast<CallNode>(value)) {
      if (isCallTo(*call, ops::memAllocTensor()) && !call->args.empty())
        if (const auto *storage = llvm::dyn_cast<VarNode>(call->args[0].get()))
          disabled.insert(storage);
    }
  }

  llvm::DenseSet<const VarNode *> outputs_;
};

//===----------------------------------------------------------------------===//
// Planner
//===----------------------------------------------------------------------===//

class Planner {
public:
  explicit Planner(const IRModule &module) : module_(module) {}

  /// Capture regions in the order they closed; alloc plans in function order.
  std::vector<Region *> captures;
  std::vector<Region *> allocPlans;
  void planFunction(llvm::StringRef name, const FunctionNode &fn);

private:
  // Static-ness (as TVM's `rewrite_cuda_graph.cc` defines it). With collectors, nothing
  // short-circuits so every var and symbolic var met is collected.
  bool isStatic(const ExprNode *e, VarList *vars, TirList *tirs) const;
  bool isStaticSInfo(const StructInfoNode *s, VarList *vars, TirList *tirs) const;
  bool isStaticPrim(const PrimExprNode *e, TirList *tirs) const;
  bool isStaticAllocStorage(const BindingNode &b, const CallNode &call) const;

  void visitFunction(const FunctionNode &fn);
  void visitSeq(const SeqExprNode &seq);
  void visitBlock(const BindingBlockNode &block);
  void visitBinding(const BindingNode &b);
  void visitCall(const BindingNode &b, const CallNode &call);
  bool isKernelLaunch(const CallNode &call) const;
  bool isCaptureSafe(const CallNode &call) const;

  void startRegion();
  void endRegion();
  void addStaticBinding(const BindingNode &b, bool isAlloc);
  void markInputs(llvm::ArrayRef<const VarNode *> vars, llvm::ArrayRef<const TirVarNode *> tirs);
  /// TVM's MarkAsFuncOutput: a var lifted into another region than the open one.
  void markOutputs(llvm::ArrayRef<const VarNode *> vars);
  /// A read the region cannot see through: the var is an output of its
  /// region whichever it is, the open one included (TVM #20485).
  void markReadOutside(const VarNode *var);

  const IRModule &module_;
  std::vector<std::unique_ptr<Region>> owned_;
  llvm::DenseMap<const VarNode *, Region *> bindingToRegion_;
  llvm::DenseSet<const VarNode *> staticVars_;
  llvm::DenseSet<const TirVarNode *> captureSymVars_;
  llvm::DenseSet<const VarNode *> disabledStorages_;
  std::string fnName_;
  const FunctionNode *owner_ = nullptr;
  Region *current_ = nullptr;
  Region *allocBuilder_ = nullptr;
  unsigned branchDepth_ = 0; ///< If-branch nesting inside the current function.
  bool inDataflow_ = false;
};

void Planner::planFunction(llvm::StringRef name, const FunctionNode &fn) {
  fnName_ = name.str();
  staticVars_.clear();
  captureSymVars_.clear();
  size_t numInputs = fn.params.size();
  if (const AttrValue *n = fn.attr("num_input"); n && n->kind() == AttrValue::Kind::Int)
    numInputs = static_cast<size_t>(std::max<int64_t>(0, n->getInt()));
  llvm::StringSet<> hinted;
  if (const AttrValue *h = fn.attr(kCaptureSymbolicVarsAttr);
      h && h->kind() == AttrValue::Kind::Array)
    for (const AttrValue &v : h->getArray())
      if (v.kind() == AttrValue::Kind::String)
        hinted.insert(v.getString());
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const VarNode *param = fn.params[i].get();
    llvm::SmallVector<const TirVarNode *, 4> defs;
    collectDefinableTirVars(param->sinfo.get(), defs);
    bool isWeight = i >= numInputs;
    if (isWeight)
      staticVars_.insert(param);
    for (const TirVarNode *t : defs)
      if (isWeight || hinted.count(t->name))
        captureSymVars_.insert(t);
  }
  OutputStorageCollector collector;
  collector.visitSeq(fn.body.get());
  disabledStorages_ = std::move(collector.disabled);
  visitFunction(fn);
}

bool Planner::isStaticPrim(const PrimExprNode *e, TirList *tirs) const {
  bool result = true;
  forEachTirVar(e, [&](const TirVarNode *v) {
    if (!captureSymVars_.count(v)) {
      result = false;
      return;
    }
    if (tirs)
      tirs->push_back(v);
  });
  return result;
}

bool Planner::isStaticSInfo(const StructInfoNode *s, VarList *vars, TirList *tirs) const {
  if (!s)
    return false;
  bool collect = vars || tirs;
  auto all = [&](auto &&range, auto &&check) {
    bool result = true;
    for (const auto &item : range) {
      result &= check(item);
      if (!result && !collect)
        return false;
    }
    return result;
  };
  switch (s->getKind()) {
  case NodeKind::ObjectSInfo:
  case NodeKind::PrimSInfo:
    return true;
  case NodeKind::TensorSInfo: {
    const std::vector<PrimExpr> *dims = llvm::cast<TensorSInfoNode>(s)->shapeValues();
    return dims && all(*dims, [&](const PrimExpr &d) { return isStaticPrim(d.get(), tirs); });
  }
  case NodeKind::ShapeSInfo: {
    const auto *shape = llvm::cast<ShapeSInfoNode>(s);
    return shape->values &&
           all(*shape->values, [&](const PrimExpr &d) { return isStaticPrim(d.get(), tirs); });
  }
  case NodeKind::TupleSInfo:
    return all(llvm::cast<TupleSInfoNode>(s)->fields,
               [&](const StructInfo &f) { return isStaticSInfo(f.get(), vars, tirs); });
  default:
    return false;
  }
}

bool Planner::isStatic(const ExprNode *e, VarList *vars, TirList *tirs) const {
  bool collect = vars || tirs;
  auto all = [&](llvm::ArrayRef<Expr> items) {
    bool result = true;
    for (const Expr &item : items) {
      result &= isStatic(item.get(), vars, tirs);
      if (!result && !collect)
        return false;
    }
    return result;
  };
  switch (e->getKind()) {
  case NodeKind::Constant:
  case NodeKind::DataTypeImm:
  case NodeKind::StringImm:
  case NodeKind::GlobalVar:
    return true;
  case NodeKind::PrimValue:
    return isStaticPrim(llvm::cast<PrimValueNode>(e)->value.get(), tirs);
  case NodeKind::Var:
  case NodeKind::DataflowVar: {
    const auto *var = llvm::cast<VarNode>(e);
    if (vars)
      vars->push_back(var);
    return staticVars_.count(var) && isStaticSInfo(var->sinfo.get(), vars, tirs);
  }
  case NodeKind::ShapeExpr: {
    bool result = true;
    for (const PrimExpr &v : llvm::cast<ShapeExprNode>(e)->values) {
      result &= isStaticPrim(v.get(), tirs);
      if (!result && !collect)
        return false;
    }
    return result;
  }
  case NodeKind::Tuple:
    return all(llvm::cast<TupleNode>(e)->fields);
  default:
    return false;
  }
}

bool Planner::isStaticAllocStorage(const BindingNode &b, const CallNode &call) const {
  if (disabledStorages_.count(b.var.get()) || call.args.size() < 3)
    return false;
  // The merge reads a 1-D constant byte size, device index 0 and a scope
  // string; anything else stays an ordinary allocation.
  const auto *shape = llvm::dyn_cast<ShapeExprNode>(call.args[0].get());
  const auto *device = llvm::dyn_cast<PrimValueNode>(call.args[1].get());
  if (!shape || shape->values.size() != 1 || !llvm::isa<IntImmNode>(shape->values[0].get()))
    return false;
  llvm::Optional<int64_t> index = device ? asConstInt(device->value.get()) : llvm::None;
  return index && *index == 0 && llvm::isa<StringImmNode>(call.args[2].get());
}

void Planner::visitFunction(const FunctionNode &fn) {
  Region *savedAlloc = allocBuilder_, *savedCurrent = current_;
  const FunctionNode *savedOwner = owner_;
  unsigned savedDepth = branchDepth_;
  owned_.push_back(std::make_unique<Region>());
  allocBuilder_ = owned_.back().get();
  allocBuilder_->isAlloc = true;
  allocBuilder_->owner = &fn;
  allocBuilder_->fnName = fnName_;
  owner_ = &fn;
  current_ = nullptr;
  branchDepth_ = 0;
  visitSeq(*fn.body);
  if (!allocBuilder_->outputs.empty()) {
    allocPlans.push_back(allocBuilder_);
  } else {
    // Unused storages stay where they are.
    for (const BindingNode *b : allocBuilder_->bindings)
      bindingToRegion_.erase(b->var.get());
  }
  allocBuilder_ = savedAlloc;
  current_ = savedCurrent;
  owner_ = savedOwner;
  branchDepth_ = savedDepth;
}

void Planner::visitSeq(const SeqExprNode &seq) {
  for (const BindingBlock &block : seq.blocks)
    visitBlock(*block);
  // A SeqExpr body reads its vars after every binding: each lifted one must
  // come back out of its region.
  for (const VarNode *v : freeVars(seq.body.get()))
    markReadOutside(v);
}

void Planner::visitBlock(const BindingBlockNode &block) {
  Region *saved = current_;
  bool savedDataflow = inDataflow_;
  current_ = nullptr;
  inDataflow_ = block.isDataflow;
  for (const Binding &b : block.bindings)
    visitBinding(*b);
  endRegion();
  current_ = saved;
  inDataflow_ = savedDataflow;
}

void Planner::visitBinding(const BindingNode &b) {
  const ExprNode *value = b.value.get();
  if (llvm::isa<MatchCastNode>(b)) {
    // TVM #20485: the match_cast stays here and must read the unpacked var.
    for (const VarNode *v : freeVars(value))
      markReadOutside(v);
    return;
  }
  switch (value->getKind()) {
  case NodeKind::Call:
    return visitCall(b, *llvm::cast<CallNode>(value));
  case NodeKind::Var:
  case NodeKind::DataflowVar: {
    const auto *src = llvm::cast<VarNode>(value);
    if (isStatic(src, nullptr, nullptr)) {
      addStaticBinding(b, false);
      markInputs({src}, {});
    } else {
      endRegion();
    }
    return markOutputs({src});
  }
  case NodeKind::Constant:
    return addStaticBinding(b, false);
  case NodeKind::Tuple: {
    VarList vars;
    TirList tirs;
    if (isStatic(value, &vars, &tirs)) {
      addStaticBinding(b, false);
      markInputs(vars, tirs);
    } else {
      endRegion();
    }
    return markOutputs(vars);
  }
  case NodeKind::TupleGetItem: {
    const ExprNode *tuple = llvm::cast<TupleGetItemNode>(value)->tuple.get();
    VarList vars;
    if (isStatic(tuple, &vars, nullptr)) {
      addStaticBinding(b, false);
      markInputs(vars, {});
    } else {
      endRegion();
    }
    return markOutputs(vars);
  }
  case NodeKind::If: {
    // The If stays in the caller; its condition is read there.
    const auto *ifNode = llvm::cast<IfNode>(value);
    for (const VarNode *v : freeVars(ifNode->cond.get()))
      markReadOutside(v);
    ++branchDepth_;
    visitSeq(*ifNode->thenBranch);
    visitSeq(*ifNode->elseBranch);
    --branchDepth_;
    return;
  }
  case NodeKind::Function:
    return visitFunction(*llvm::cast<FunctionNode>(value));
  case NodeKind::SeqExpr:
    return visitSeq(*llvm::cast<SeqExprNode>(value));
  default:
    return; // Shapes, prim values, strings: neither static nor an end.
  }
}

bool Planner::isKernelLaunch(const CallNode &call) const {
  if (isPrimFuncCallee(call, module_))
    return true;
  if (const OpInfo *op = call.opInfo())
    return op->launchesKernel;
  return llvm::isa<ExternFuncNode>(call.op.get());
}

bool Planner::isCaptureSafe(const CallNode &call) const {
  if (!isCapturableCall(call) || isHostSymbol(call.op.get(), module_))
    return false;
  for (const Expr &arg : call.args)
    if (isHostSymbol(arg.get(), module_))
      return false;
  return true;
}

void Planner::visitCall(const BindingNode &b, const CallNode &call) {
  if (isCallTo(call, ops::memAllocStorage())) {
    if (isStaticAllocStorage(b, call)) {
      // Only storages at a function's top level join the alloc plan: its
      // launch must dominate every unpacked storage.
      if (branchDepth_ == 0)
        addStaticBinding(b, /*isAlloc=*/true);
      else
        staticVars_.insert(b.var.get());
    }
    return;
  }
  if (isCallTo(call, ops::builtinAllocTensor()))
    return;

  VarList vars;
  TirList tirs;
  bool allStatic = true;
  for (const Expr &arg : call.args)
    allStatic &= isStatic(arg.get(), &vars, &tirs);
  if (allStatic) {
    const auto *gv = llvm::dyn_cast<GlobalVarNode>(call.op.get());
    const auto *ext = llvm::dyn_cast<ExternFuncNode>(call.op.get());
    if (gv && !isPrimFuncCallee(call, module_))
      allStatic = false; // A Relax function call.
    else if (ext && isVMBuiltinSymbol(ext->symbol))
      allStatic = false;
    else if (!isCaptureSafe(call))
      allStatic = false;
    // The lifted call must not name a symbolic var the capture cannot bind.
    for (const StructInfo &s : call.sinfoArgs)
      if (allStatic && !isStaticSInfo(s.get(), nullptr, &tirs))
        allStatic = false;
  }
  if (allStatic) {
    if (!current_ && isKernelLaunch(call))
      startRegion();
    addStaticBinding(b, false);
    markInputs(vars, tirs);
  } else {
    endRegion();
  }
  markOutputs(vars);
}

void Planner::startRegion() {
  owned_.push_back(std::make_unique<Region>());
  current_ = owned_.back().get();
  current_->owner = owner_;
  current_->fnName = fnName_;
}

void Planner::endRegion() {
  if (current_ && !current_->bindings.empty())
    captures.push_back(current_);
  current_ = nullptr;
}

void Planner::addStaticBinding(const BindingNode &b, bool isAlloc) {
  Region *target = isAlloc ? allocBuilder_ : current_;
  if (target) {
    target->bindings.push_back(&b);
    target->inDataflow |= inDataflow_;
    bindingToRegion_[b.var.get()] = target;
  }
  staticVars_.insert(b.var.get());
}

void Planner::markInputs(llvm::ArrayRef<const VarNode *> vars,
                         llvm::ArrayRef<const TirVarNode *> tirs) {
  if (!current_)
    return;
  for (const VarNode *v : vars)
    if (bindingToRegion_.lookup(v) != current_)
      current_->addInput(v);
  for (const TirVarNode *t : tirs)
    current_->addTirVar(t);
}

void Planner::markOutputs(llvm::ArrayRef<const VarNode *> vars) {
  for (const VarNode *v : vars) {
    Region *r = bindingToRegion_.lookup(v);
    if (r && r != current_)
      r->markOutput(v);
  }
}

void Planner::markReadOutside(const VarNode *var) {
  if (Region *r = bindingToRegion_.lookup(var))
    r->markOutput(var);
}

//===----------------------------------------------------------------------===//
// Merging the alloc plans (as TVM's `rewrite_cuda_graph.cc` does)
//===----------------------------------------------------------------------===//

/// Shares storages across functions (they never run concurrently): per
/// scope, the i-th largest storage of every function maps to one merged
/// storage, the largest of them. Sets each plan's output indices and returns
/// the merged bindings in tuple order.
std::vector<const BindingNode *> mergeAllocPlans(llvm::ArrayRef<Region *> plans) {
  struct Record {
    const BindingNode *binding;
    int64_t size;
  };
  std::map<std::string, std::vector<std::vector<Record>>> byScope;
  for (size_t p = 0; p < plans.size(); ++p) {
    for (const BindingNode *b : plans[p]->bindings) {
      const auto *call = llvm::cast<CallNode>(b->value.get());
      const auto *shape = llvm::cast<ShapeExprNode>(call->args[0].get());
      int64_t size = llvm::cast<IntImmNode>(shape->values[0].get())->value;
      std::string scope = llvm::cast<StringImmNode>(call->args[2].get())->value;
      auto &lists = byScope[scope];
      lists.resize(plans.size());
      lists[p].push_back({b, size});
    }
  }
  std::vector<const BindingNode *> merged;
  for (auto &[scope, lists] : byScope) {
    size_t longest = 0;
    for (auto &list : lists) {
      std::stable_sort(list.begin(), list.end(),
                       [](const Record &a, const Record &b) { return a.size > b.size; });
      longest = std::max(longest, list.size());
    }
    for (size_t i = 0; i < longest; ++i) {
      const Record *chosen = nullptr;
      unsigned index = static_cast<unsigned>(merged.size());
      for (size_t p = 0; p < lists.size(); ++p) {
        if (i >= lists[p].size())
          continue;
        const Record &r = lists[p][i];
        if (!chosen || r.size > chosen->size)
          chosen = &r;
        plans[p]->outputIndex[r.binding->var.get()] = index;
      }
      merged.push_back(chosen->binding);
    }
  }
  return merged;
}

//===----------------------------------------------------------------------===//
// Building lifted functions
//===----------------------------------------------------------------------===//

Attrs forcePureAttrs() {
  return make<AttrsNode>(AttrDict{{kForcePureAttr.str(), AttrValue::boolean(true)}});
}

/// Re-emits a region's bindings into a fresh function whose params stand
/// for the region's inputs; every symbolic var gets a copy of its own, so
/// no symbolic var is shared with the caller.
class CaptureFunctionBuilder : public ExprMutator {
public:
  explicit CaptureFunctionBuilder(const IRModule *module) : ExprMutator(module) {}

  llvm::Expected<Function> build(const Region &region);

  llvm::Expected<Expr> rewriteExpr(const Expr &e) override {
    if (const auto *shape = llvm::dyn_cast_or_null<ShapeExprNode>(e.get())) {
      std::vector<PrimExpr> values;
      bool changed = false;
      for (const PrimExpr &v : shape->values) {
        values.push_back(substitutePrim(v, tirMap_));
        changed |= values.back().get() != v.get();
      }
      return changed ? shapeExpr(std::move(values)) : e;
    }
    if (const auto *prim = llvm::dyn_cast_or_null<PrimValueNode>(e.get())) {
      PrimExpr v = substitutePrim(prim->value, tirMap_);
      return v.get() == prim->value.get() ? e : primValue(std::move(v));
    }
    return ExprMutator::rewriteExpr(e);
  }

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> op = rewriteExpr(call->op);
    if (!op)
      return op.takeError();
    std::vector<Expr> args;
    llvm::Expected<bool> argsChanged =
        mapExprs(call->args, args, [&](const Expr &a) { return rewriteExpr(a); });
    if (!argsChanged)
      return argsChanged.takeError();
    bool changed = *argsChanged || op->get() != call->op.get();
    std::vector<StructInfo> sinfoArgs;
    for (const StructInfo &s : call->sinfoArgs) {
      sinfoArgs.push_back(subst(s));
      changed |= sinfoArgs.back().get() != s.get();
    }
    if (!changed)
      return Expr(call);
    Expr fresh = make<CallNode>(*op, args, call->attrs, sinfoArgs);
    llvm::Expected<Expr> out = builder_.normalize(std::move(fresh));
    if (out || !call->sinfo)
      return out;
    llvm::consumeError(out.takeError());
    return builder_.normalize(make<CallNode>(std::move(*op), std::move(args), call->attrs,
                                             std::move(sinfoArgs), subst(call->sinfo)));
  }

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    llvm::Expected<Expr> value = rewriteExpr(binding->value);
    if (!value)
      return value.takeError();
    const VarNode *var = binding->var.get();
    StructInfo sinfo = subst(var->sinfo);
    if (value->get() == binding->value.get() && sinfo.get() == var->sinfo.get())
      return builder_.emitBinding(binding);
    Var out(var);
    if (sinfo.get() != var->sinfo.get()) {
      out = make<VarNode>(var->name, sinfo, var->loc);
      remapVar(var, out);
    }
    return builder_.emitBinding(make<VarBindingNode>(out, std::move(*value), binding->loc));
  }

private:
  StructInfo subst(const StructInfo &s) const {
    return s && !tirMap_.empty() ? substituteSInfo(s.get(), tirMap_) : s;
  }
  void copyTirVar(const TirVarNode *t) {
    if (!tirMap_.count(t))
      tirMap_[t] = make<TirVarNode>(t->name, t->dtype, t->isSizeVar);
  }
  void collectTirVars(const Region &region);

  TirVarMap tirMap_;
};

void CaptureFunctionBuilder::collectTirVars(const Region &region) {
  llvm::SmallVector<const TirVarNode *, 8> found;
  for (const TirVarNode *t : region.tirVars)
    found.push_back(t);
  for (const VarNode *in : region.inputs)
    graft::collectTirVars(in->sinfo.get(), found);
  for (const BindingNode *b : region.bindings) {
    graft::collectTirVars(b->var->sinfo.get(), found);
    for (const TirVarNode *t : freeSymbolicVars(b->value.get()))
      found.push_back(t);
  }
  for (const TirVarNode *t : found)
    copyTirVar(t);
}

llvm::Expected<Function> CaptureFunctionBuilder::build(const Region &region) {
  collectTirVars(region);
  std::vector<Var> params;
  for (const VarNode *in : region.inputs) {
    Var param = make<VarNode>(in->name, subst(in->sinfo), in->loc);
    remapVar(in, param);
    params.push_back(param);
  }
  if (!region.tirVars.empty()) {
    std::vector<PrimExpr> dims;
    for (const TirVarNode *t : region.tirVars)
      dims.push_back(tirMap_.lookup(t));
    params.push_back(make<VarNode>("shape_expr", shapeSInfo(std::move(dims))));
  }
  BlockBuilder::FunctionScope scope(builder_, params);
  BlockBuilder::BlockScope blockScope(builder_, /*isDataflow=*/false);
  for (const BindingNode *b : region.bindings)
    if (llvm::Error err = rewriteBinding(b))
      return err;
  std::vector<Expr> fields;
  for (const VarNode *out : region.outputs)
    fields.push_back(lookupVar(out));
  llvm::Expected<Var> gv = builder_.emit(tupleExpr(std::move(fields)), "gv");
  if (!gv)
    return gv.takeError();
  // TVM's capture function returns an empty output as `R.tuple()` itself (the binding stays), so
  // its text is `R.tuple()` then `return R.tuple()`; the same IR compares equal to it.
  Expr result = region.outputs.empty() ? tupleExpr({}) : Expr(*gv);
  llvm::Expected<SeqExpr> body = builder_.finalizeSeqExpr({blockScope.finish()}, result);
  if (!body)
    return body.takeError();
  return make<FunctionNode>(std::move(params), std::move(*body), (*gv)->sinfo,
                            /*isPure=*/true, forcePureAttrs());
}

/// `cuda_graph_alloc`: the merged storages, returned as one tuple.
llvm::Expected<Function> buildAllocFunction(const IRModule &module,
                                            llvm::ArrayRef<const BindingNode *> merged) {
  BlockBuilder builder(&module);
  BlockBuilder::FunctionScope scope(builder, {});
  BlockBuilder::BlockScope blockScope(builder, /*isDataflow=*/false);
  std::vector<Expr> fields;
  for (const BindingNode *b : merged) {
    if (llvm::Error err = builder.emitBinding(Binding(b)))
      return err;
    fields.push_back(b->var);
  }
  llvm::Expected<Var> gv = builder.emit(tupleExpr(std::move(fields)), "gv");
  if (!gv)
    return gv.takeError();
  llvm::Expected<SeqExpr> body = builder.finalizeSeqExpr({blockScope.finish()}, *gv);
  if (!body)
    return body.takeError();
  return make<FunctionNode>(std::vector<Var>{}, std::move(*body), (*gv)->sinfo,
                            /*isPure=*/true, forcePureAttrs());
}

//===----------------------------------------------------------------------===//
// Rewriter
//===----------------------------------------------------------------------===//

/// What the rewrite of all functions shares: launch points, lifted vars,
/// the launch counter and the functions added so far.
struct RewriteState {
  const IRModule &module;
  llvm::DenseMap<const VarNode *, Region *> launchAt;
  llvm::DenseSet<const VarNode *> lifted;
  GlobalVar allocGV;
  StructInfo allocRet;
  int64_t nextIndex = 0;
  std::vector<std::pair<GlobalVar, Function>> added;
  llvm::DenseMap<uint64_t, llvm::SmallVector<size_t, 1>> addedByHash;
  llvm::StringSet<> takenNames;
  int64_t captureFunctions = 0;

  explicit RewriteState(const IRModule &module) : module(module) {}

  /// TVM's BlockBuilder::AddFunction: a structurally equal function already
  /// added is reused; otherwise the name gets 1, 2, ... appended if taken.
  GlobalVar addFunction(Function fn, llvm::StringRef hint) {
    uint64_t hash = structuralHash(fn.get());
    for (size_t i : addedByHash.lookup(hash))
      if (structuralEqual(added[i].second.get(), fn.get()))
        return added[i].first;
    std::string name = hint.str();
    for (unsigned n = 1; module.lookup(name) || takenNames.count(name); ++n)
      name = hint.str() + std::to_string(n);
    takenNames.insert(name);
    GlobalVar gv = make<GlobalVarNode>(name, fn->sinfo);
    addedByHash[hash].push_back(added.size());
    added.emplace_back(gv, std::move(fn));
    return gv;
  }
};

class Rewriter : public ExprMutator {
public:
  explicit Rewriter(RewriteState &state) : ExprMutator(&state.module), state_(state) {}

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const VarNode *var = binding->var.get();
    if (Region *region = state_.launchAt.lookup(var))
      if (llvm::Error err = launch(*region))
        return err;
    if (pending_.count(var))
      return unpack(var);
    if (state_.lifted.count(var))
      return llvm::Error::success();
    if (!pending_.empty())
      for (const VarNode *used : freeVars(binding->value.get()))
        if (pending_.count(used))
          if (llvm::Error err = unpack(used))
            return err;
    return ExprMutator::rewriteBinding(binding);
  }

private:
  struct Pending {
    Var result;
    unsigned index;
  };

  /// Emits `var = result[index]` now, the first time var is needed.
  llvm::Error unpack(const VarNode *var) {
    auto it = pending_.find(var);
    Pending p = it->second;
    pending_.erase(it);
    llvm::Expected<Var> out =
        builder_.emit(make<TupleGetItemNode>(p.result, static_cast<int>(p.index)), var->name);
    if (!out)
      return out.takeError();
    remapVar(var, *out);
    return llvm::Error::success();
  }

  llvm::Error launch(const Region &region) {
    llvm::Expected<Var> result = region.isAlloc ? launchAlloc() : launchCapture(region);
    if (!result)
      return result.takeError();
    for (const auto &[var, index] : region.outputIndex)
      pending_[var] = {*result, index};
    return llvm::Error::success();
  }

  llvm::Expected<Var> launchAlloc() {
    Expr call = make<CallNode>(
        ops::callBuiltinWithCtx(),
        std::vector<Expr>{make<ExternFuncNode>("vm.builtin.cuda_graph.get_cached_alloc"),
                          tupleExpr({state_.allocGV, primValueInt(0)})},
        nullptr, std::vector<StructInfo>{state_.allocRet});
    return builder_.emit(std::move(call), "gv");
  }

  llvm::Expected<Var> launchCapture(const Region &region) {
    CaptureFunctionBuilder capture(&state_.module);
    llvm::Expected<Function> fn = capture.build(region);
    if (!fn)
      return fn.takeError();
    size_t before = state_.added.size();
    GlobalVar gv = state_.addFunction(*fn, region.fnName + "_cuda_graph_capture");
    state_.captureFunctions += state_.added.size() != before;
    std::vector<Expr> inputs;
    for (const VarNode *in : region.inputs) {
      if (pending_.count(in))
        if (llvm::Error err = unpack(in))
          return llvm::Expected<Var>(std::move(err));
      inputs.push_back(lookupVar(in));
    }
    std::vector<Expr> args;
    Expr shape;
    if (!region.tirVars.empty()) {
      std::vector<PrimExpr> dims;
      for (const TirVarNode *t : region.tirVars)
        dims.push_back(PrimExpr(t));
      shape = shapeExpr(std::move(dims));
      inputs.push_back(shape);
    }
    args = {gv, tupleExpr(std::move(inputs)), primValueInt(state_.nextIndex++)};
    if (shape)
      args.push_back(shape);
    std::vector<StructInfo> outs;
    for (const VarNode *out : region.outputs)
      outs.push_back(out->sinfo);
    Expr call = make<CallNode>(
        ops::callBuiltinWithCtx(),
        std::vector<Expr>{make<ExternFuncNode>("vm.builtin.cuda_graph.run_or_capture"),
                          tupleExpr(std::move(args))},
        nullptr, std::vector<StructInfo>{tupleSInfo(std::move(outs))});
    return builder_.emit(std::move(call), "gv");
  }

  RewriteState &state_;
  llvm::DenseMap<const VarNode *, Pending> pending_;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Where a launch would land in a place that cannot hold it.
llvm::Error checkPreconditions(llvm::ArrayRef<Region *> regions) {
  for (const Region *r : regions) {
    std::string fn = "'" + r->fnName + "'";
    if (r->inDataflow)
      return needsError(kPassName, "no dataflow block around a capturable binding (run "
                                   "to-non-dataflow first): function " +
                                       fn + " has one");
    if (r->owner->isPure && !hasForcePure(*r->owner))
      return needsError(kPassName, "function " + fn +
                                       " to be impure or relax.force_pure (run "
                                       "remove-purity-checking first)");
  }
  return llvm::Error::success();
}

class RewriteCUDAGraphPass : public ModulePass {
public:
  RewriteCUDAGraphPass() : ModulePass(kPassName) {}

  PassStatistic captureRegions{this, "capture-regions", "kernel regions captured"};
  PassStatistic captureFunctions{this, "capture-functions", "capture functions generated"};
  PassStatistic liftedBindings{this, "lifted-bindings", "bindings lifted into capture functions"};
  PassStatistic staticStorages{this, "static-storages", "storages lifted into cuda_graph_alloc"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) override {
    if (!ctx.configBool(kUseCUDAGraphConfig, false))
      return false;
    std::vector<ModuleEntry> entries = module.entries();
    Planner planner(module);
    for (const ModuleEntry &entry : entries)
      if (const FunctionNode *fn = entry.asFunction(); fn && !isPrimitiveFunction(*fn))
        planner.planFunction(entry.gvar->name, *fn);
    if (planner.captures.empty() && planner.allocPlans.empty())
      return false;
    std::vector<Region *> all(planner.allocPlans);
    all.insert(all.end(), planner.captures.begin(), planner.captures.end());
    if (llvm::Error err = checkPreconditions(all))
      return llvm::Expected<bool>(std::move(err));

    RewriteState state(module);
    int64_t lifted = 0;
    for (Region *r : all) {
      state.launchAt[r->launchPoint()] = r;
      for (const BindingNode *b : r->bindings)
        state.lifted.insert(b->var.get());
      if (!r->isAlloc)
        lifted += static_cast<int64_t>(r->bindings.size());
    }
    std::vector<const BindingNode *> merged = mergeAllocPlans(planner.allocPlans);
    if (!merged.empty()) {
      llvm::Expected<Function> alloc = buildAllocFunction(module, merged);
      if (!alloc)
        return alloc.takeError();
      state.allocRet = llvm::cast<FunctionNode>(alloc->get())->retSInfo;
      state.allocGV = state.addFunction(*alloc, "cuda_graph_alloc");
    }

    llvm::Expected<bool> changed =
        rewriteFunctions(module, [&](const GlobalVar &, const Function &fn) {
          Rewriter rewriter(state);
          return rewriter.rewriteFunction(fn);
        });
    if (!changed)
      return changed.takeError();
    for (auto &[gv, fn] : state.added)
      module.add(gv, fn);
    captureRegions += static_cast<int64_t>(planner.captures.size());
    captureFunctions += state.captureFunctions;
    liftedBindings += lifted;
    staticStorages += static_cast<int64_t>(merged.size());
    return true;
  }
};

} // namespace

void graft::registerRewriteCUDAGraphPass() {
  PassInfo info;
  info.alias = "RewriteCUDAGraph";
  info.summary = "Lifts static storages into cuda_graph_alloc and static kernel regions into "
                 "CUDA-graph capture functions (when relax.backend.use_cuda_graph is true)";
  info.preconditions = "after static-plan-block-memory; no dataflow block and no pure function "
                       "without relax.force_pure where a launch goes";
  registerPass<RewriteCUDAGraphPass>(std::move(info));
}
