//===- transforms/FuseMaskedCopy.cpp - out[mask] = src[mask] as R.where -----===//
//
// `picked = R.index_tensor(src, (mask,))` followed by
// `out2 = R.index_put(out, (mask,), picked, accumulate=False)` puts every
// picked value back where it came from, so the put equals
// `R.where(mask, src, out)` bit for bit. The rewrite removes the two reads of
// the mask's count to the host (so it cannot run inside a CUDA-graph capture), which also makes the
// copy capturable in a CUDA graph.
//
// The put is rewritten only when the round trip provably holds: a boolean
// mask of out's shape, src of out's dtype and shape, no accumulation, and the
// same mask on both sides (the same var, or the same deterministic pure
// computation of the same inputs: two random draws are never the same). The
// index goes away with its last reader; a match_cast of the picks stays
// when anything reads the count it defines (a user check on the count).
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/Analyses.h"

#include "ir/Op.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseSet.h"

using namespace graft;

static constexpr const char *kPassName = "fuse-masked-copy";

namespace {

//===----------------------------------------------------------------------===//
// Mask equality
//===----------------------------------------------------------------------===//

/// Ops whose result depends only on their arguments and attrs. Calls that
/// leave the op registry's knowledge (packed and TIR calls, closures),
/// allocations (fresh storage each time) and unknown ops are not: a
/// `call_pure_packed("random", ...)` is pure yet draws anew each call.
bool isDeterministicOp(const OpInfo &info) {
  return !info.unknown && info.pure && info.deterministic;
}

bool sameAttrs(const AttrsNode *a, const AttrsNode *b) {
  bool emptyA = !a || a->empty(), emptyB = !b || b->empty();
  if (emptyA || emptyB)
    return emptyA == emptyB;
  return structuralEqual(a, b);
}

bool sameSInfoArgs(const CallNode &a, const CallNode &b) {
  if (a.sinfoArgs.size() != b.sinfoArgs.size())
    return false;
  for (size_t i = 0; i < a.sinfoArgs.size(); ++i)
    if (!structuralEqual(a.sinfoArgs[i].get(), b.sinfoArgs[i].get()))
      return false;
  return true;
}

/// Decides whether two expressions denote the same value by following both
/// definition chains side by side. A work list instead of recursion keeps
/// the stack flat for masks built by arbitrarily long chains; the visited
/// set of pairs makes shared subcomputations cost one comparison, so the
/// whole check is linear in the size of the two histories.
class MaskComparator {
public:
  explicit MaskComparator(const BindingFacts &info) : info_(info) {}

  bool same(const ExprNode *a, const ExprNode *b) {
    llvm::SmallVector<std::pair<const ExprNode *, const ExprNode *>, 32> work;
    llvm::DenseSet<std::pair<const ExprNode *, const ExprNode *>> seen;
    work.push_back({a, b});
    while (!work.empty()) {
      auto [x, y] = work.pop_back_val();
      if (x == y || !seen.insert({x, y}).second)
        continue;
      // Look through bound vars to the computations that define them.
      if (const ExprNode *v = info_.boundValue(x)) {
        work.push_back({v, y});
        continue;
      }
      if (const ExprNode *v = info_.boundValue(y)) {
        work.push_back({x, v});
        continue;
      }
      if (!sameNode(x, y, work))
        return false;
    }
    return true;
  }

private:
  using WorkList = llvm::SmallVectorImpl<std::pair<const ExprNode *, const ExprNode *>>;

  /// Compares one pair of distinct, non-bound-var nodes; pushes the pairs of
  /// children that must also be the same.
  bool sameNode(const ExprNode *x, const ExprNode *y, WorkList &work) const {
    if (x->getKind() != y->getKind())
      return false;
    switch (x->getKind()) {
    case NodeKind::Call:
      return sameCall(*llvm::cast<CallNode>(x), *llvm::cast<CallNode>(y), work);
    case NodeKind::Tuple: {
      const auto *tx = llvm::cast<TupleNode>(x), *ty = llvm::cast<TupleNode>(y);
      if (tx->fields.size() != ty->fields.size())
        return false;
      for (size_t i = 0; i < tx->fields.size(); ++i)
        work.push_back({tx->fields[i].get(), ty->fields[i].get()});
      return true;
    }
    case NodeKind::TupleGetItem: {
      const auto *tx = llvm::cast<TupleGetItemNode>(x), *ty = llvm::cast<TupleGetItemNode>(y);
      if (tx->index != ty->index)
        return false;
      work.push_back({tx->tuple.get(), ty->tuple.get()});
      return true;
    }
    case NodeKind::Constant:
    case NodeKind::ShapeExpr:
    case NodeKind::PrimValue:
    case NodeKind::StringImm:
    case NodeKind::DataTypeImm:
    case NodeKind::ExternFunc:
    case NodeKind::GlobalVar:
      // Symbolic vars compare by identity: the same inputs.
      return structuralEqual(x, y);
    default:
      // Distinct params, match_cast results, Ifs, functions: not provably
      // the same value.
      return false;
    }
  }

  bool sameCall(const CallNode &x, const CallNode &y, WorkList &work) const {
    const auto *op = llvm::dyn_cast<OpNode>(x.op.get());
    if (!op || x.op.get() != y.op.get() || !op->info || !isDeterministicOp(*op->info))
      return false;
    if (x.args.size() != y.args.size() || !sameAttrs(x.attrs.get(), y.attrs.get()) ||
        !sameSInfoArgs(x, y))
      return false;
    for (size_t i = 0; i < x.args.size(); ++i)
      work.push_back({x.args[i].get(), y.args[i].get()});
    return true;
  }

  const BindingFacts &info_;
};

//===----------------------------------------------------------------------===//
// Finding the masked copies
//===----------------------------------------------------------------------===//

/// The operands of one planned `R.where(mask, src, out)`.
struct WhereArgs {
  Expr mask, src, out;
};

/// A put's rewrite plus the index it read.
struct Match {
  WhereArgs where;
  const VarNode *picked;
};

const TensorSInfoNode *tensorOf(const ExprNode *e) {
  return e ? llvm::dyn_cast_or_null<TensorSInfoNode>(e->sinfo.get()) : nullptr;
}

/// Every dim provably equal (or the same shape var).
bool provablySameShape(const TensorSInfoNode &a, const TensorSInfoNode &b) {
  const std::vector<PrimExpr> *da = a.shapeValues(), *db = b.shapeValues();
  if (da && db) {
    if (da->size() != db->size())
      return false;
    for (size_t i = 0; i < da->size(); ++i)
      if (!proveEqual((*da)[i], (*db)[i]))
        return false;
    return true;
  }
  return a.shape && a.shape.get() == b.shape.get() && llvm::isa<VarNode>(a.shape.get());
}

/// The single index of a `(mask,)` tuple argument.
const ExprNode *soleIndex(const ExprNode *indices) {
  const auto *tuple = llvm::dyn_cast_or_null<TupleNode>(indices);
  return tuple && tuple->fields.size() == 1 ? tuple->fields[0].get() : nullptr;
}

class CopyFinder {
public:
  explicit CopyFinder(const BindingFacts &info) : info_(info), masks_(info) {}

  /// The rewrite of `binding` when it is a masked copy that may become a
  /// where; None otherwise.
  llvm::Optional<Match> match(const BindingNode &binding) {
    if (!llvm::isa<VarBindingNode>(binding))
      return llvm::None;
    const CallNode *put = asCallTo(binding.value.get(), ops::indexPut());
    if (!put || put->args.size() != 3 || accumulates(*put))
      return llvm::None;
    const ExprNode *out = put->args[0].get(), *putMask = soleIndex(put->args[1].get());
    const auto *picked = llvm::dyn_cast<VarNode>(put->args[2].get());
    const CallNode *index = asCallTo(info_.boundValue(picked), ops::indexTensor());
    if (!putMask || !index || index->args.size() != 2)
      return llvm::None;
    const ExprNode *src = index->args[0].get(), *indexMask = soleIndex(index->args[1].get());
    if (!indexMask || !typesFit(out, src, putMask) || !srcVisibleAt(src, binding) ||
        !masks_.same(putMask, indexMask))
      return llvm::None;
    return Match{{Expr(putMask), Expr(src), Expr(out)}, picked};
  }

private:
  static bool accumulates(const CallNode &put) {
    const AttrValue *acc = put.attrs ? put.attrs->lookup("accumulate") : nullptr;
    return !acc || acc->kind() != AttrValue::Kind::Bool || acc->getBool();
  }

  /// A boolean mask of out's shape, src of out's dtype and shape.
  static bool typesFit(const ExprNode *out, const ExprNode *src, const ExprNode *mask) {
    const TensorSInfoNode *o = tensorOf(out), *s = tensorOf(src), *m = tensorOf(mask);
    if (!o || !s || !m || !m->dtype.isBool() || o->dtype.isVoid() || s->dtype != o->dtype)
      return false;
    return provablySameShape(*m, *o) && provablySameShape(*s, *o);
  }

  /// The where reads src at the put: a dataflow var bound in another block
  /// is out of scope there.
  bool srcVisibleAt(const ExprNode *src, const BindingNode &put) const {
    const auto *var = llvm::dyn_cast<VarNode>(src);
    if (!var || !var->isDataflow())
      return true;
    const BindingNode *def = info_.definition(var);
    return def && info_.blockOf.lookup(def) == info_.blockOf.lookup(&put);
  }

  const BindingFacts &info_;
  MaskComparator masks_;
};

//===----------------------------------------------------------------------===//
// Removing the index
//===----------------------------------------------------------------------===//

/// A match_cast of the picks is dead with the index when nothing reads its
/// var or any symbolic var it mentions (the count it defines, or a size it
/// checks the count against).
bool isUnreadCountCast(const MatchCastNode &cast, const BindingFacts &info) {
  if (info.useCount(cast.var.get()) != 0)
    return false;
  llvm::SmallVector<const TirVarNode *, 4> vars;
  collectTirVars(cast.castSInfo.get(), vars);
  llvm::DenseMap<const TirVarNode *, unsigned> own;
  for (const TirVarNode *v : vars)
    ++own[v];
  for (const auto &[v, n] : own)
    if (info.tirMentions.lookup(v) != n)
      return false;
  return true;
}

/// Adds the index binding of `picked`, and the count casts of it, to `drop`
/// when the rewritten puts were its only other readers.
bool dropIndexIfUnread(const VarNode *picked, unsigned rewrittenReads, const BindingFacts &info,
                       const std::vector<const MatchCastNode *> &casts,
                       llvm::DenseSet<const BindingNode *> &drop) {
  if (info.useCount(picked) != rewrittenReads + casts.size())
    return false;
  for (const MatchCastNode *cast : casts)
    if (!isUnreadCountCast(*cast, info))
      return false;
  drop.insert(info.definition(picked));
  for (const MatchCastNode *cast : casts)
    drop.insert(cast);
  return true;
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

class MaskedCopyRewriter : public ExprMutator {
public:
  MaskedCopyRewriter(const IRModule *module,
                     const llvm::DenseMap<const BindingNode *, WhereArgs> &wheres,
                     const llvm::DenseSet<const BindingNode *> &drop)
      : ExprMutator(module), wheres_(wheres), drop_(drop) {}

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    if (drop_.count(binding))
      return llvm::Error::success();
    auto it = wheres_.find(binding);
    if (it == wheres_.end())
      return ExprMutator::rewriteBinding(binding);
    return emitWhere(*binding, it->second);
  }

private:
  Expr remapped(const Expr &e) const {
    const auto *var = llvm::dyn_cast<VarNode>(e.get());
    return var ? lookupVar(var) : e;
  }

  llvm::Error emitWhere(const BindingNode &put, const WhereArgs &args) {
    auto call = makeAt<CallNode>(
        put.value->loc, ops::where(),
        std::vector<Expr>{remapped(args.mask), remapped(args.src), remapped(args.out)});
    llvm::Expected<Expr> value = builder_.normalize(Expr(call));
    if (!value)
      return value.takeError();
    // The put's var stays while where's inferred struct info is the put's
    // (the usual case); else a fresh var of the same name takes its uses.
    const VarNode *var = put.var.get();
    const StructInfoNode *sinfo = (*value)->sinfo.get();
    if (!sinfo || structInfoIdentical(var->sinfo.get(), sinfo))
      return builder_.emitBinding(make<VarBindingNode>(put.var, std::move(*value), put.loc));
    Var fresh = var->isDataflow()
                    ? Var(make<DataflowVarNode>(var->name, StructInfo(sinfo), var->loc))
                    : make<VarNode>(var->name, StructInfo(sinfo), var->loc);
    remapVar(var, fresh);
    return builder_.emitBinding(make<VarBindingNode>(fresh, std::move(*value), put.loc));
  }

  const llvm::DenseMap<const BindingNode *, WhereArgs> &wheres_;
  const llvm::DenseSet<const BindingNode *> &drop_;
};

struct FunctionResult {
  Function fn; ///< Null when unchanged.
  int64_t rewrites = 0;
  int64_t keptIndices = 0;
};

llvm::Expected<FunctionResult> fuseInFunction(const Function &fn, const IRModule &module,
                                              const BindingFacts &info) {
  CopyFinder finder(info);
  llvm::DenseMap<const BindingNode *, WhereArgs> wheres;
  llvm::DenseMap<const VarNode *, unsigned> rewrittenReads;
  llvm::SmallVector<const VarNode *, 4> pickedOrder;
  llvm::DenseMap<const VarNode *, std::vector<const MatchCastNode *>> casts;
  for (const BindingNode *binding : info.bindings) {
    if (const auto *cast = llvm::dyn_cast<MatchCastNode>(binding))
      if (const auto *of = llvm::dyn_cast<VarNode>(cast->value.get()))
        casts[of].push_back(cast);
    llvm::Optional<Match> m = finder.match(*binding);
    if (!m)
      continue;
    wheres[binding] = m->where;
    if (rewrittenReads[m->picked]++ == 0)
      pickedOrder.push_back(m->picked);
  }
  FunctionResult result;
  if (wheres.empty())
    return result;
  result.rewrites = static_cast<int64_t>(wheres.size());
  llvm::DenseSet<const BindingNode *> drop;
  for (const VarNode *picked : pickedOrder)
    if (!dropIndexIfUnread(picked, rewrittenReads[picked], info, casts[picked], drop))
      ++result.keptIndices;
  MaskedCopyRewriter rewriter(&module, wheres, drop);
  llvm::Expected<Function> out = rewriter.rewriteFunction(fn);
  if (!out)
    return out.takeError();
  result.fn = std::move(*out);
  return result;
}

class FuseMaskedCopyPass : public FunctionPass {
public:
  FuseMaskedCopyPass() : FunctionPass(kPassName) {}

  PassStatistic rewrites{this, "rewrites", "masked copies rewritten as R.where"};
  PassStatistic keptIndices{this, "kept-indices", "indices kept because something else reads them"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    llvm::Expected<FunctionResult> r =
        fuseInFunction(fn, module(), getAnalysis<BindingFactsAnalysis>());
    if (!r)
      return r.takeError();
    if (!r->fn)
      return fn;
    rewrites += r->rewrites;
    if (r->keptIndices)
      keptIndices += r->keptIndices;
    return r->fn;
  }
};

} // namespace

void graft::registerFuseMaskedCopyPass() {
  PassInfo info;
  info.alias = "FuseMaskedCopy";
  info.summary = "Rewrites out[mask] = src[mask] (index_tensor + index_put) as R.where(mask, "
                 "src, out) and drops the index when nothing else reads it";
  info.preconditions = "none (R.where and the removed index are pure, so dataflow blocks "
                       "stay valid)";
  registerPass<FuseMaskedCopyPass>(std::move(info));
}
