//===- transforms/CanonicalizeBindings.cpp - Fold trivial bindings ----------===//
//
// `canonicalize-bindings` (TVM's CanonicalizeBindings, TVM
// `src/relax/transform/canonicalize_bindings.cc` and its v0.23 deltas) runs two steps on every
// Relax function:
//
//  1. Symbolic vars. A match_cast whose value's struct info already fixes the
//     symbolic vars of its target binds them to those values; later shapes,
//     prim values, struct info and sinfo_args use the values (simplified).
//     Two match_casts that fix one var to provably different values are an
//     error. `if` branches keep their own values; a branch whose struct info
//     lost symbolic vars ends with a match_cast back to the `if`'s.
//  2. Relax bindings. A planner walks the function once and records trivial
//     bindings (`y = x`, `t[i]` of a known tuple literal, a tuple rebuilt
//     field by field from one tuple, a match_cast to the value's own struct
//     info), constant-bound vars, and which vars are used outside their
//     dataflow block. A mutator then drops trivial bindings (uses go to the
//     root var; for `Var = DataflowVar` with outside uses the DataflowVar's
//     definition is renamed instead), inlines constants at every use, turns
//     Vars used only inside their dataflow block into DataflowVars, and
//     folds `dfv = e; out = dfv` into `out = e` inside dataflow blocks.
//
//===----------------------------------------------------------------------===//

#include "transforms/CanonicalizeBindings.h"

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/FreeVars.h"
#include "ir/Diagnostics.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/Visitor.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace graft;

static constexpr const char *kPassName = "canonicalize-bindings";

namespace {

/// A var of the same kind and name as `like`, with struct info `sinfo`.
Var freshVarLike(const VarNode *like, StructInfo sinfo) {
  if (like->isDataflow())
    return make<DataflowVarNode>(like->name, std::move(sinfo), like->loc);
  return make<VarNode>(like->name, std::move(sinfo), like->loc);
}

//===----------------------------------------------------------------------===//
// Step 1: symbolic vars fixed by match_cast.
//===----------------------------------------------------------------------===//

/// Pairs each bare symbolic var of `target` with what `value` says it is
/// (TVM's InferSymbolicVarMap: tensors, shapes, prim values and tuples).
void inferSymbolicVars(const StructInfoNode *target, const StructInfoNode *value,
                       llvm::SmallVectorImpl<std::pair<const TirVarNode *, PrimExpr>> &out) {
  if (!target || !value)
    return;
  auto bindDims = [&](const std::vector<PrimExpr> *t, const std::vector<PrimExpr> *v) {
    if (!t || !v || t->size() != v->size())
      return;
    for (size_t i = 0; i < t->size(); ++i)
      if (const auto *tv = llvm::dyn_cast<TirVarNode>((*t)[i].get()))
        out.push_back({tv, (*v)[i]});
  };
  if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(target)) {
    if (const auto *v = llvm::dyn_cast<TensorSInfoNode>(value))
      bindDims(t->shapeValues(), v->shapeValues());
  } else if (const auto *t = llvm::dyn_cast<ShapeSInfoNode>(target)) {
    if (const auto *v = llvm::dyn_cast<ShapeSInfoNode>(value))
      if (t->values && v->values)
        bindDims(&*t->values, &*v->values);
  } else if (const auto *t = llvm::dyn_cast<PrimSInfoNode>(target)) {
    if (const auto *v = llvm::dyn_cast<PrimSInfoNode>(value))
      if (t->value && v->value)
        if (const auto *tv = llvm::dyn_cast<TirVarNode>(t->value.get()))
          out.push_back({tv, v->value});
  } else if (const auto *t = llvm::dyn_cast<TupleSInfoNode>(target)) {
    if (const auto *v = llvm::dyn_cast<TupleSInfoNode>(value))
      if (t->fields.size() == v->fields.size())
        for (size_t i = 0; i < t->fields.size(); ++i)
          inferSymbolicVars(t->fields[i].get(), v->fields[i].get(), out);
  }
}

class SymbolicVarCanonicalizer : public ExprMutator {
public:
  SymbolicVarCanonicalizer(const IRModule *module, CanonicalizeBindingsStats &stats)
      : ExprMutator(module), stats_(stats) {}

  llvm::Expected<Expr> rewriteFunctionExpr(const FunctionNode *fn) override {
    Scope saved = known_;
    llvm::Expected<Expr> out = ExprMutator::rewriteFunctionExpr(fn);
    known_ = std::move(saved);
    return out;
  }

  llvm::Expected<Expr> rewriteExpr(const Expr &e) override {
    if (!e || known_.map.empty())
      return ExprMutator::rewriteExpr(e);
    if (const auto *s = llvm::dyn_cast<ShapeExprNode>(e.get())) {
      std::vector<PrimExpr> values;
      values.reserve(s->values.size());
      bool changed = false;
      for (const PrimExpr &v : s->values) {
        values.push_back(substitutePrim(v, known_.map));
        changed |= values.back().get() != v.get();
      }
      return changed ? shapeExpr(std::move(values)) : e;
    }
    if (const auto *p = llvm::dyn_cast<PrimValueNode>(e.get())) {
      PrimExpr v = substitutePrim(p->value, known_.map);
      return v.get() == p->value.get() ? e : primValue(std::move(v));
    }
    return ExprMutator::rewriteExpr(e);
  }

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    std::vector<StructInfo> sinfoArgs;
    bool changed = false;
    for (const StructInfo &s : call->sinfoArgs) {
      sinfoArgs.push_back(subst(s.get()));
      changed |= sinfoArgs.back().get() != s.get();
    }
    if (!changed)
      return ExprMutator::rewriteCall(call);
    std::vector<Expr> args;
    for (const Expr &a : call->args) {
      llvm::Expected<Expr> na = rewriteExpr(a);
      if (!na)
        return na.takeError();
      args.push_back(std::move(*na));
    }
    llvm::Expected<Expr> op = rewriteExpr(call->op);
    if (!op)
      return op.takeError();
    Expr fresh = makeAt<CallNode>(call->loc, *op, args, call->attrs, sinfoArgs);
    llvm::Expected<Expr> out = builder_.normalize(std::move(fresh));
    if (out || !call->sinfo)
      return out;
    // An unknown op keeps its annotated struct info, substituted.
    llvm::consumeError(out.takeError());
    Expr kept = makeAt<CallNode>(call->loc, *op, std::move(args), call->attrs, std::move(sinfoArgs),
                                 subst(call->sinfo.get()));
    return builder_.normalize(std::move(kept));
  }

  llvm::Expected<Expr> rewriteIf(const IfNode *ifNode) override {
    llvm::Expected<Expr> cond = rewriteExpr(ifNode->cond);
    if (!cond)
      return cond.takeError();
    // Each branch may fix the same symbolic var differently.
    Scope saved = known_;
    llvm::Expected<Expr> thenB = branch(ifNode->thenBranch);
    known_ = saved;
    if (!thenB)
      return thenB.takeError();
    llvm::Expected<Expr> elseB = branch(ifNode->elseBranch);
    known_ = std::move(saved);
    if (!elseB)
      return elseB.takeError();
    if (cond->get() == ifNode->cond.get() && thenB->get() == ifNode->thenBranch.get() &&
        elseB->get() == ifNode->elseBranch.get())
      return Expr(ifNode);
    // The LCA of two branches specialised differently would lose the
    // symbolic shape; a match_cast back to the if's struct info keeps it.
    StructInfo target = subst(ifNode->sinfo.get());
    SeqExpr t =
        restoreBranch(llvm::cast<SeqExprNode>(thenB->get()), target, "then_branch_with_dyn");
    SeqExpr f =
        restoreBranch(llvm::cast<SeqExprNode>(elseB->get()), target, "else_branch_with_dyn");
    Expr fresh = makeAt<IfNode>(ifNode->loc, std::move(*cond), std::move(t), std::move(f));
    return builder_.normalize(std::move(fresh));
  }

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const auto *mc = llvm::dyn_cast<MatchCastNode>(binding);
    if (mc)
      if (llvm::Error err = learn(*mc))
        return err;
    llvm::Expected<Expr> value = rewriteExpr(binding->value);
    if (!value)
      return value.takeError();
    const VarNode *var = binding->var.get();
    bool valueSame = value->get() == binding->value.get();
    if (mc) {
      StructInfo cast = subst(mc->castSInfo.get());
      if (valueSame && cast.get() == mc->castSInfo.get())
        return builder_.emitBinding(binding);
      Var out = rebind(var, cast);
      ++stats_.substitutedSymbolicVars;
      return builder_.emitBinding(make<MatchCastNode>(out, std::move(*value), cast, mc->loc));
    }
    StructInfo annotation = subst(var->sinfo.get());
    if (valueSame && annotation.get() == var->sinfo.get())
      return builder_.emitBinding(binding);
    // As TVM's ReEmitBinding: the var takes the struct info of its new value.
    StructInfo sinfo = (*value)->sinfo ? (*value)->sinfo : annotation;
    Var out = rebind(var, sinfo);
    return builder_.emitBinding(make<VarBindingNode>(out, std::move(*value), binding->loc));
  }

private:
  struct Scope {
    TirVarMap map;
    llvm::DenseMap<const TirVarNode *, const MatchCastNode *> source;
  };

  StructInfo subst(const StructInfoNode *s) {
    if (!s || known_.map.empty())
      return s;
    llvm::SmallVector<const TirVarNode *, 8> vars;
    collectTirVars(s, vars);
    for (const TirVarNode *v : vars)
      if (known_.map.count(v))
        return substituteSInfo(s, known_.map);
    return s;
  }

  /// `var` itself when its struct info is already `sinfo`, else a fresh var
  /// that every later use maps to.
  Var rebind(const VarNode *var, const StructInfo &sinfo) {
    if (structInfoIdentical(var->sinfo.get(), sinfo.get()))
      return Var(var);
    Var out = freshVarLike(var, sinfo);
    remapVar(var, out);
    return out;
  }

  llvm::Error learn(const MatchCastNode &mc) {
    llvm::SmallVector<std::pair<const TirVarNode *, PrimExpr>, 4> pairs;
    inferSymbolicVars(mc.castSInfo.get(), mc.value ? mc.value->sinfo.get() : nullptr, pairs);
    for (auto &[tv, value] : pairs) {
      auto it = known_.map.find(tv);
      if (it == known_.map.end()) {
        known_.map[tv] = value;
        known_.source[tv] = &mc;
        continue;
      }
      if (!proveNotEqual(it->second, value))
        continue;
      const MatchCastNode *first = known_.source.lookup(tv);
      return diagError(mc.loc,
                       "MatchCast statements must be consistent. However, the definition of Relax "
                       "variable " +
                           (first ? first->var->name : std::string("?")) +
                           " implies that TIR variable " + tv->name + " is " +
                           toString(it->second.get()) +
                           ", while the later definition of Relax "
                           "variable " +
                           mc.var->name + " instead implies that TIR variable " + tv->name +
                           " is " + toString(value.get()));
    }
    return llvm::Error::success();
  }

  llvm::Expected<Expr> branch(const SeqExpr &b) {
    BlockBuilder::InnerScope scope(builder_);
    return rewriteSeqExpr(b.get());
  }

  SeqExpr restoreBranch(const SeqExprNode *seq, const StructInfo &target, const char *name) {
    if (!target || structInfoIdentical(target.get(), seq->sinfo.get()))
      return SeqExpr(seq);
    Var out = make<VarNode>(name, target);
    std::vector<BindingBlock> blocks = seq->blocks;
    blocks.push_back(make<BindingBlockNode>(
        std::vector<Binding>{make<MatchCastNode>(out, seq->body, target)}, false));
    return make<SeqExprNode>(BlockBuilder::mergeBlocks(std::move(blocks)), out, target);
  }

  CanonicalizeBindingsStats &stats_;
  Scope known_;
};

//===----------------------------------------------------------------------===//
// Step 2: the binding plan.
//===----------------------------------------------------------------------===//

struct Plan {
  llvm::DenseMap<const VarNode *, Var> replaceUsage;
  llvm::DenseMap<const VarNode *, Var> replaceBinding;
  llvm::DenseSet<const VarNode *> remove;
  llvm::DenseMap<const VarNode *, Expr> inlineConstant;
  /// Some binding of a dataflow block copies a DataflowVar into a Var (the
  /// fold after rewriting may apply).
  bool hasOutputCopy = false;
  /// The function has a match_cast (step 1 may apply). The planner's walk
  /// tells, instead of a search of its own: a third walk over every node of a
  /// large function, which costs most when the function outgrows the caches
  /// (docs/performance.md).
  bool hasMatchCast = false;

  bool empty() const {
    return replaceUsage.empty() && replaceBinding.empty() && remove.empty() &&
           inlineConstant.empty() && !hasOutputCopy;
  }
};

/// Follows `map` from `v` to the end of its chain. The chains the planner
/// builds are acyclic; the step bound only guards against a bad plan.
const VarNode *follow(const llvm::DenseMap<const VarNode *, Var> &map, const VarNode *v) {
  for (size_t steps = 0; steps <= map.size(); ++steps) {
    auto it = map.find(v);
    if (it == map.end())
      return v;
    v = it->second.get();
  }
  return v;
}

class BindingPlanner : public ExprVisitor {
public:
  static Plan collect(const FunctionNode &fn) {
    BindingPlanner planner;
    planner.visitExpr(&fn);
    return planner.buildPlan();
  }

  void visitFunction(const FunctionNode *fn) override {
    const BindingBlockNode *saved = block_;
    block_ = nullptr;
    // A closure's captures escape any dataflow block.
    if (depth_++ > 0)
      for (const VarNode *v : freeVars(fn))
        usedOutsideHome_.insert(v);
    ExprVisitor::visitFunction(fn);
    --depth_;
    block_ = saved;
  }

  void visitSeqExpr(const SeqExprNode *seq) override {
    const BindingBlockNode *saved = block_;
    block_ = nullptr;
    ExprVisitor::visitSeqExpr(seq);
    block_ = saved;
  }

  void visitBlock(const BindingBlockNode *block) override {
    block_ = block;
    ExprVisitor::visitBlock(block);
    block_ = nullptr;
  }

  void visitVarBinding(const VarBindingNode *binding) override {
    record(binding, /*sameSInfo=*/true);
    ExprVisitor::visitVarBinding(binding);
  }

  void visitMatchCast(const MatchCastNode *binding) override {
    bool same = binding->value &&
                structInfoIdentical(binding->var->sinfo.get(), binding->value->sinfo.get());
    record(binding, same);
    hasMatchCast_ = true;
    ExprVisitor::visitMatchCast(binding);
  }

  void visitVarDef(const VarNode *var, const BindingNode *) override {
    // Only a Var can become a DataflowVar.
    if (inDataflow() && !var->isDataflow())
      definedInDataflow_.push_back(var);
  }

  void visitVarUse(const VarNode *var) override {
    if (!inDataflow()) {
      usedOutsideHome_.insert(var);
      return;
    }
    const BindingBlockNode *home = defBlock_.lookup(var->id);
    if (home && home != block_)
      usedOutsideHome_.insert(var);
  }

private:
  bool inDataflow() const { return block_ && block_->isDataflow; }

  /// The value a binding stands for once known tuples are looked through.
  Expr knownValue(const BindingNode *binding) {
    Expr value = binding->value;
    if (const auto *tgi = llvm::dyn_cast_or_null<TupleGetItemNode>(value.get())) {
      Expr tuple = tgi->tuple;
      while (const auto *v = llvm::dyn_cast<VarNode>(tuple.get())) {
        const ExprNode *known = known_.lookup(v->id);
        if (!known)
          break;
        tuple = Expr(known);
      }
      if (const auto *t = llvm::dyn_cast<TupleNode>(tuple.get()))
        if (tgi->index >= 0 && static_cast<size_t>(tgi->index) < t->fields.size())
          return t->fields[tgi->index];
    }
    if (const auto *t = llvm::dyn_cast_or_null<TupleNode>(value.get()))
      if (const VarNode *source = rebuiltTuple(*t))
        return Expr(source);
    return value;
  }

  /// The tuple var `t` when `tuple` is `(t[0], ..., t[n-1])` of an n-tuple.
  const VarNode *rebuiltTuple(const TupleNode &tuple) {
    const VarNode *source = nullptr;
    for (size_t i = 0; i < tuple.fields.size(); ++i) {
      const auto *field = llvm::dyn_cast<VarNode>(tuple.fields[i].get());
      if (!field)
        return nullptr;
      const auto *tgi = llvm::dyn_cast_or_null<TupleGetItemNode>(known_.lookup(field->id));
      if (!tgi || tgi->index != static_cast<int>(i))
        return nullptr;
      const auto *t = llvm::dyn_cast<VarNode>(tgi->tuple.get());
      if (!t || (source && source != t))
        return nullptr;
      source = t;
    }
    const auto *sinfo =
        source ? llvm::dyn_cast_or_null<TupleSInfoNode>(source->sinfo.get()) : nullptr;
    return sinfo && sinfo->fields.size() == tuple.fields.size() ? source : nullptr;
  }

  void record(const BindingNode *binding, bool sameSInfo) {
    const VarNode *var = binding->var.get();
    Expr value = knownValue(binding);
    if (const auto *parent = llvm::dyn_cast_or_null<VarNode>(value.get()); parent && sameSInfo) {
      trivialOrder_.push_back(var);
      trivial_[var] = parent;
    }
    if (llvm::isa_and_nonnull<ConstantNode>(value.get()))
      constants_[var] = value;
    if (inDataflow() && !var->isDataflow() && llvm::isa<VarBindingNode>(binding) &&
        llvm::isa_and_nonnull<DataflowVarNode>(binding->value.get()))
      hasOutputCopy_ = true;
    // Only a var, tuple or tuple item is ever looked through.
    if (llvm::isa_and_nonnull<VarNode, TupleNode, TupleGetItemNode>(value.get()))
      known_[var->id] = value.get();
    defBlock_[var->id] = block_;
  }

  Plan buildPlan() {
    Plan plan;
    plan.hasOutputCopy = hasOutputCopy_;
    plan.hasMatchCast = hasMatchCast_;
    // A Var used only inside its dataflow block becomes a DataflowVar.
    for (const VarNode *var : definedInDataflow_) {
      if (var->isDataflow() || usedOutsideHome_.count(var))
        continue;
      Var dfv = make<DataflowVarNode>(var->name, var->sinfo, var->loc);
      plan.replaceBinding[var] = dfv;
      plan.replaceUsage[var] = dfv;
      // The renamed var is the same value: its constant is still inlined.
      auto it = constants_.find(var);
      if (it != constants_.end())
        plan.inlineConstant[dfv.get()] = it->second;
    }
    for (auto &[var, constant] : constants_)
      plan.inlineConstant[var] = constant;
    for (const VarNode *boundVar : trivialOrder_) {
      const VarNode *boundTo = trivial_.lookup(boundVar);
      for (size_t steps = 0; steps <= trivial_.size(); ++steps) {
        auto it = trivial_.find(boundTo);
        if (it == trivial_.end())
          break;
        boundTo = it->second;
      }
      boundTo = follow(plan.replaceBinding, boundTo);
      if (boundTo == boundVar)
        continue;
      if (boundVar->isDataflow() || !boundTo->isDataflow() || !usedOutsideHome_.count(boundVar)) {
        // Uses of the copy read the root var directly.
        plan.replaceUsage[boundVar] = Var(boundTo);
      } else {
        // The copy turns a DataflowVar into a Var used after the block: the
        // DataflowVar's definition defines the Var instead.
        plan.replaceBinding[boundTo] = Var(boundVar);
        plan.replaceUsage[boundTo] = Var(boundVar);
      }
      plan.remove.insert(boundVar);
    }
    return plan;
  }

  const BindingBlockNode *block_ = nullptr;
  unsigned depth_ = 0;
  bool hasOutputCopy_ = false;
  bool hasMatchCast_ = false;
  // Keyed by DenseId: a pointer-keyed map of every var was megabytes probed
  // at random per use at 200k bindings (docs/performance.md). The values
  // are nodes of the function being planned, which outlives the planner.
  DenseIdMap<const BindingBlockNode *> defBlock_;
  DenseIdMap<const ExprNode *> known_;
  llvm::DenseMap<const VarNode *, Expr> constants_;
  std::vector<const VarNode *> trivialOrder_;
  llvm::DenseMap<const VarNode *, const VarNode *> trivial_;
  std::vector<const VarNode *> definedInDataflow_;
  llvm::DenseSet<const VarNode *> usedOutsideHome_;
};

//===----------------------------------------------------------------------===//
// Step 2: applying the plan.
//===----------------------------------------------------------------------===//

/// Adds every DataflowVar an expression reads to a set. A DataflowVar the
/// expression itself defines (in a nested function) may be added too: it is
/// no binding of the block being folded, so it never matters there.
class DataflowReads : public ExprVisitor {
public:
  explicit DataflowReads(DenseIdSet &out) : out_(out) {}
  void visitVarUse(const VarNode *var) override {
    if (var->isDataflow())
      out_.insert(var->id);
  }

private:
  DenseIdSet &out_;
};

/// `dfv = e; ...; out = dfv` with dfv read nowhere else becomes `out = e`
/// (TVM's dataflow-block fold, applied after the plan). The sets are keyed
/// by DenseId (every var of the block is alive, so no two share one), and
/// reads are marked by one visitor instead of a free-var list per binding:
/// the fold looks at every binding of a 200k-binding block
/// (docs/performance.md).
BindingBlock foldOutputCopies(const BindingBlock &block, CanonicalizeBindingsStats &stats) {
  DenseIdSet disqualified, copied;
  DenseIdMap<const ExprNode *> candidates;
  bool anyCandidate = false;
  DataflowReads reads(disqualified);
  const std::vector<Binding> &bindings = block->bindings;
  for (size_t i = bindings.size(); i-- > 0;) {
    const BindingNode *b = bindings[i].get();
    const ExprNode *value = b->value.get();
    if (b->var->isDataflow()) {
      reads.visitExpr(value);
      uint32_t id = b->var->id;
      if (!disqualified.contains(id) && copied.contains(id)) {
        candidates[id] = value;
        anyCandidate = true;
      }
      continue;
    }
    // TVM folds a match_cast the same way, leaving a call as its value; the
    // parser would lift it out again, so graft folds plain copies only.
    const auto *src = llvm::dyn_cast_or_null<DataflowVarNode>(value);
    if (src && llvm::isa<VarBindingNode>(b)) {
      if (!copied.insert(src->id))
        disqualified.insert(src->id);
      continue;
    }
    reads.visitExpr(value);
  }
  if (!anyCandidate)
    return block;
  std::vector<Binding> out;
  out.reserve(bindings.size());
  for (const Binding &b : bindings) {
    if (b->var->isDataflow() && candidates.lookup(b->var->id))
      continue;
    const auto *src = llvm::dyn_cast_or_null<DataflowVarNode>(b->value.get());
    bool copy = src && !b->var->isDataflow() && llvm::isa<VarBindingNode>(b.get());
    const ExprNode *folded = copy ? candidates.lookup(src->id) : nullptr;
    if (!folded) {
      out.push_back(b);
      continue;
    }
    ++stats.foldedOutputCopies;
    out.push_back(make<VarBindingNode>(b->var, Expr(folded), b->loc));
  }
  return make<BindingBlockNode>(std::move(out), block->isDataflow, block->loc);
}

class BindingCanonicalizer : public ExprMutator {
public:
  BindingCanonicalizer(const IRModule *module, Plan plan, CanonicalizeBindingsStats &stats)
      : ExprMutator(module), plan_(std::move(plan)), stats_(stats) {}

  llvm::Expected<Expr> rewriteExpr(const Expr &e) override {
    const auto *var = llvm::dyn_cast_or_null<VarNode>(e.get());
    if (!var)
      return ExprMutator::rewriteExpr(e);
    const VarNode *root = follow(plan_.replaceUsage, var);
    auto c = plan_.inlineConstant.find(root);
    Expr out = c != plan_.inlineConstant.end() ? c->second : lookupVar(root);
    if (out.get() != var)
      ++(c != plan_.inlineConstant.end() ? stats_.inlinedConstants : stats_.replacedUses);
    return out;
  }

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const VarNode *var = binding->var.get();
    if (plan_.remove.count(var)) {
      ++stats_.removedBindings;
      return llvm::Error::success();
    }
    const VarNode *def = follow(plan_.replaceBinding, var);
    llvm::Expected<Expr> value = rewriteExpr(binding->value);
    if (!value)
      return value.takeError();
    if (value->get() == binding->value.get() && def == var)
      return emit(binding);
    if (def != var)
      ++(def->isDataflow() && !var->isDataflow() ? stats_.dataflowVars : stats_.renamedDefinitions);
    if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding)) {
      Var out = rebind(var, def, mc->castSInfo);
      return emit(make<MatchCastNode>(out, std::move(*value), mc->castSInfo, mc->loc));
    }
    StructInfo sinfo = (*value)->sinfo ? (*value)->sinfo : def->sinfo;
    Var out = rebind(var, def, sinfo);
    return emit(make<VarBindingNode>(out, std::move(*value), binding->loc));
  }

  llvm::Error rewriteBlock(const BindingBlockNode *block) override {
    // A nested block (in a closure) has its own answer; the outer block's is
    // kept across it.
    bool outer = std::exchange(emittedOutputCopy_, false);
    llvm::Error err = ExprMutator::rewriteBlock(block);
    blockHasOutputCopy_ = emittedOutputCopy_;
    emittedOutputCopy_ = outer;
    return err;
  }

  /// The dataflow-block fold after each block, when the rewritten block
  /// still has a copy to fold: the fold's backward walk over a block that
  /// has none (the planner removes most copies) found nothing, at the cost
  /// of another pass over every binding.
  BindingBlock finishBlock(const BindingBlockNode *original, BindingBlock rewritten) override {
    if (original->isDataflow && plan_.hasOutputCopy && blockHasOutputCopy_)
      return foldOutputCopies(rewritten, stats_);
    return rewritten;
  }

private:
  /// The var a rewritten binding defines: the planned definition `def`,
  /// with the struct info of the new value (as TVM's ReEmitBinding).
  Var rebind(const VarNode *var, const VarNode *def, const StructInfo &sinfo) {
    Var out(def);
    if (!structInfoIdentical(def->sinfo.get(), sinfo.get()))
      out = freshVarLike(def, sinfo);
    if (out.get() != var)
      remapVar(var, out);
    if (out.get() != def)
      remapVar(def, out);
    return out;
  }

  /// Emits `binding`, noting a copy `out = dfv` that foldOutputCopies may fold.
  llvm::Error emit(Binding binding) {
    if (!binding->var->isDataflow() && llvm::isa<VarBindingNode>(binding.get()) &&
        llvm::isa_and_nonnull<DataflowVarNode>(binding->value.get()))
      emittedOutputCopy_ = true;
    return builder_.emitBinding(std::move(binding));
  }

  Plan plan_;
  CanonicalizeBindingsStats &stats_;
  bool emittedOutputCopy_ = false;
  bool blockHasOutputCopy_ = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// The pass.
//===----------------------------------------------------------------------===//

llvm::Expected<Function> graft::canonicalizeBindings(const Function &fn, const IRModule &module,
                                                     CanonicalizeBindingsStats *stats) {
  CanonicalizeBindingsStats scratch;
  CanonicalizeBindingsStats &counts = stats ? *stats : scratch;
  Function out = fn;
  Plan plan = BindingPlanner::collect(*out);
  // Step 1 has nothing to do without a match_cast; when it changes the
  // function, step 2 plans the new one.
  if (plan.hasMatchCast) {
    SymbolicVarCanonicalizer symbolic(&module, counts);
    llvm::Expected<Function> step = symbolic.rewriteFunction(out);
    if (!step)
      return step.takeError();
    if (step->get() != out.get()) {
      out = std::move(*step);
      plan = BindingPlanner::collect(*out);
    }
  }
  if (plan.empty())
    return out;
  BindingCanonicalizer mutator(&module, std::move(plan), counts);
  return mutator.rewriteFunction(out);
}

namespace {

class CanonicalizeBindingsPass : public FunctionPass {
public:
  CanonicalizeBindingsPass() : FunctionPass(kPassName) {}

  // Each is reported only when non-zero.
  PassStatistic dataflowVars{this, "dataflow-vars", "Vars turned into DataflowVars"};
  PassStatistic foldedOutputCopies{this, "folded-output-copies",
                                   "`out = dfv` copies folded into dfv's binding"};
  PassStatistic inlinedConstants{this, "inlined-constants", "uses of constant vars inlined"};
  PassStatistic removedBindings{this, "removed-bindings", "trivial bindings removed"};
  PassStatistic renamedDefinitions{this, "renamed-definitions",
                                   "DataflowVar definitions renamed to their outer Var"};
  PassStatistic replacedUses{this, "replaced-uses", "uses replaced by their root var"};
  PassStatistic substitutedSymbolicVars{this, "substituted-symbolic-vars",
                                        "bindings whose symbolic vars were substituted"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    CanonicalizeBindingsStats counts;
    llvm::Expected<Function> out = canonicalizeBindings(fn, module(), &counts);
    if (!out)
      return llvm::make_error<llvm::StringError>("pass canonicalize-bindings failed in function '" +
                                                     functionName() +
                                                     "': " + llvm::toString(out.takeError()),
                                                 llvm::inconvertibleErrorCode());
    auto add = [](PassStatistic &stat, int64_t n) {
      if (n)
        stat += n;
    };
    add(dataflowVars, counts.dataflowVars);
    add(foldedOutputCopies, counts.foldedOutputCopies);
    add(inlinedConstants, counts.inlinedConstants);
    add(removedBindings, counts.removedBindings);
    add(renamedDefinitions, counts.renamedDefinitions);
    add(replacedUses, counts.replacedUses);
    add(substitutedSymbolicVars, counts.substitutedSymbolicVars);
    return out;
  }
};

} // namespace

void graft::registerCanonicalizeBindingsPass() {
  PassInfo info;
  info.alias = "CanonicalizeBindings";
  info.summary = "Folds trivial bindings and match_casts, inlines constants, substitutes "
                 "symbolic vars fixed by match_cast";
  info.preconditions = "none (any well-formed module)";
  registerPass<CanonicalizeBindingsPass>(std::move(info));
}
