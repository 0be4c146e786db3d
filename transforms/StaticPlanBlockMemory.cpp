//===- transforms/StaticPlanBlockMemory.cpp - Plan storages of allocations ---===//
//
// `static-plan-block-memory` (TVM's StaticPlanBlockMemory, TVM
// `src/relax/transform/static_plan_block_memory.cc`) gives each planned `R.builtin.alloc_tensor` a
// storage, reusing storages of tensors that are dead, per function:
//
//  1. Tokens. Each alloc_tensor whose struct info has a ShapeExpr shape and a
//     dtype is a request of `elem bytes × dims` bytes, symbolic dims replaced
//     by their largest value over the ranges that `tir_var_upper_bound`,
//     `tir_var_lower_bound` and `tir_non_negative_var` give the signature's
//     vars (interval arithmetic, BoundEvaluator). Aliases
//     (reshape, memory.view, ensure_zero_offset, `vm.builtin.reshape`, and
//     match_cast or `y = x` of a token) share their input's token. A token is
//     discarded (left as builtin.alloc_tensor) when it reaches a sequence
//     result or an `if` condition, is passed to a call that is not a PrimFunc,
//     an ExternFunc or `vm.call_tir_dyn`, or is used outside its block.
//     Every use as such a call's argument adds a reference.
//  2. Allocation, in binding order: a request with no reference gets a fresh
//     storage; else the free pool of its (scope, dtype) offers the smallest
//     storage of [S, 16S] bytes, else the largest of [S/16, S) (enlarged to
//     S), else a fresh one; a symbolic size reuses only a provably equal one.
//     After each call, its tokens lose a reference; at zero their storage is
//     free again.
//  3. Rewrite: the first request of a storage emits
//     `storage = R.memory.alloc_storage(R.shape([bytes]), dev, scope, dtype)`
//     with the final size; each planned request becomes
//     `R.memory.alloc_tensor(storage, 0, shape, dtype, dev)`. With
//     `relax.memory_plan_dynamic_func_output` (removed by the pass), an
//     unplanned alloc of symbolic shape gets a storage of its own sized by
//     the upper bounds.
//
// Later TVM fixes kept over v0.23 (docs/passes.md): match_cast and
// `vm.builtin.reshape` alias their input (#20190), and an `if` branch never
// takes a storage first allocated in the other branch, nor does code after
// the `if` take one first allocated in a branch (#20191): each branch starts
// from the pool as it was before the `if`, and the pool is restored after.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/AttrKeys.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/StructuralEqual.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

#include <deque>
#include <map>
#include <memory>

using namespace graft;

static constexpr const char *kPassName = "static-plan-block-memory";

namespace {

constexpr int64_t kMatchRange = 16;

struct Storage {
  int64_t bytes = 0; ///< Constant size (grows when a smaller storage is enlarged).
  PrimExpr symBytes; ///< Set when the size is symbolic.
  DataType dtype;
  std::string scope;
  Var var; ///< Set when the rewrite emits its alloc_storage.
};

/// Storages free for reuse. Constant sizes are kept per (dtype, scope) in a
/// multimap by size, so a request finds its best fit in logarithmic time
/// however many storages are free (a linear scan made the pass quadratic on
/// programs with many live tensors); equal sizes stay in release order, which
/// keeps the choice deterministic. Symbolic sizes are few and scanned.
class FreeList {
public:
  void add(Storage *s) {
    if (s->symBytes)
      symbolic_.push_back(s);
    else
      bucket(s->dtype, s->scope).emplace(s->bytes, s);
  }

  /// The smallest free storage of at least `bytes` (at most `bytes *
  /// kMatchRange`), else the largest of at least `bytes / kMatchRange`,
  /// which the caller enlarges. Removed from the list; null if none.
  Storage *takeStatic(int64_t bytes, DataType dtype, const std::string &scope) {
    auto found = buckets_.find(keyOf(dtype, scope));
    if (found == buckets_.end())
      return nullptr;
    std::multimap<int64_t, Storage *> &sizes = found->second;
    auto it = sizes.lower_bound(bytes);
    if (it == sizes.end() || it->first > bytes * kMatchRange) {
      if (it == sizes.begin())
        return nullptr;
      int64_t largest = std::prev(it)->first;
      if (largest < bytes / kMatchRange)
        return nullptr;
      it = sizes.lower_bound(largest); // The earliest released of that size.
    }
    Storage *s = it->second;
    sizes.erase(it);
    return s;
  }

  /// The first free symbolic storage whose size provably equals `bytes`.
  Storage *takeSymbolic(const PrimExpr &bytes, DataType dtype, const std::string &scope) {
    for (auto it = symbolic_.begin(); it != symbolic_.end(); ++it) {
      Storage *s = *it;
      if (s->dtype == dtype && s->scope == scope && proveEqual(s->symBytes, bytes)) {
        symbolic_.erase(it);
        return s;
      }
    }
    return nullptr;
  }

private:
  using Key = std::pair<uint32_t, std::string>;
  static Key keyOf(DataType dt, const std::string &scope) {
    return {uint32_t(dt.code) << 24 | uint32_t(dt.bits) << 16 | dt.lanes, scope};
  }
  std::multimap<int64_t, Storage *> &bucket(DataType dt, const std::string &scope) {
    return buckets_[keyOf(dt, scope)];
  }

  std::map<Key, std::multimap<int64_t, Storage *>> buckets_;
  std::vector<Storage *> symbolic_;
};

/// One planned allocation request.
struct Token {
  const BindingNode *alloc = nullptr;
  const BindingBlockNode *block = nullptr;
  int64_t bytes = 0;
  PrimExpr symBytes;
  DataType dtype;
  std::string scope;
  int refs = 0;
  bool discarded = false;
  Storage *storage = nullptr;
};

/// The tokens an expression may hold: a flat leaf set, or one per tuple field.
struct Tokens {
  llvm::SmallVector<Token *, 1> leaves;
  std::vector<Tokens> fields;
  bool isTuple = false;
  void collect(llvm::SmallVectorImpl<Token *> &out) const {
    out.append(leaves.begin(), leaves.end());
    for (const Tokens &f : fields)
      f.collect(out);
  }
};

const StringImmNode *asString(const ExprNode *e) {
  return llvm::dyn_cast_or_null<StringImmNode>(e);
}

/// The ExternFunc symbol a call goes to (`R.call_packed("sym", ...)`), or "".
llvm::StringRef externSymbol(const CallNode &call) {
  if (const auto *ext = llvm::dyn_cast<ExternFuncNode>(call.op.get()))
    return ext->symbol;
  return "";
}

/// TVM's constant folding of `a * b` (TryConstFold): constants fold, `x * 1`
/// and `1 * x` are x; nothing else is simplified.
PrimExpr mulFold(const PrimExpr &a, const PrimExpr &b) {
  llvm::Optional<int64_t> ca = asConstInt(a.get()), cb = asConstInt(b.get());
  if (ca && cb)
    return intImm(*ca * *cb, a->dtype);
  if (ca && *ca == 1)
    return b;
  if (cb && *cb == 1)
    return a;
  return primBinary(PrimOp::Mul, a, b);
}

/// `a op b` for + - max min, folding two constants and `x + 0`, `x - 0`.
PrimExpr foldBinary(PrimOp op, const PrimExpr &a, const PrimExpr &b) {
  llvm::Optional<int64_t> ca = asConstInt(a.get()), cb = asConstInt(b.get());
  if (ca && cb) {
    switch (op) {
    case PrimOp::Add:
      return intImm(*ca + *cb, a->dtype);
    case PrimOp::Sub:
      return intImm(*ca - *cb, a->dtype);
    case PrimOp::Max:
      return intImm(std::max(*ca, *cb), a->dtype);
    case PrimOp::Min:
      return intImm(std::min(*ca, *cb), a->dtype);
    case PrimOp::FloorDiv: {
      int64_t q = *ca / *cb;
      return intImm((*ca % *cb != 0 && ((*ca < 0) != (*cb < 0))) ? q - 1 : q, a->dtype);
    }
    default:
      break;
    }
  }
  if ((op == PrimOp::Add || op == PrimOp::Sub) && cb && *cb == 0)
    return a;
  if (op == PrimOp::Add && ca && *ca == 0)
    return b;
  return primBinary(op, a, b);
}

/// A range of values; a null end is infinite. `point` marks a single value.
struct Interval {
  PrimExpr lo, hi;
  bool point = false;
};

/// Symbolic interval arithmetic in the manner of TVM's IntSet evaluation:
/// the upper-bounded vars of a function range over [lower or 0, upper],
/// every other var is a single point, known non-negative when the function
/// says so (`tir_var_lower_bound`, `tir_non_negative_var`, size vars).
class BoundEvaluator {
public:
  llvm::DenseMap<const TirVarNode *, std::pair<int64_t, int64_t>> ranges;
  llvm::DenseSet<const TirVarNode *> nonNegative;

  /// The largest value of `e`, or `e` itself when it has no finite bound.
  PrimExpr upperBound(const PrimExpr &e) const {
    if (ranges.empty())
      return e;
    Interval i = eval(e);
    return i.hi ? i.hi : e;
  }

private:
  bool bounded(const PrimExprNode *e) const {
    bool any = false;
    forEachTirVar(e, [&](const TirVarNode *v) { any |= ranges.count(v) != 0; });
    return any;
  }
  bool provablyNonNegative(const PrimExpr &e) const {
    if (llvm::Optional<int64_t> c = asConstInt(e.get()))
      return *c >= 0;
    if (const auto *v = llvm::dyn_cast<TirVarNode>(e.get()))
      return v->isSizeVar || nonNegative.count(v);
    if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get()))
      if (b->op == PrimOp::Mul || b->op == PrimOp::Add)
        return provablyNonNegative(b->a) && provablyNonNegative(b->b);
    return false;
  }
  static Interval everything() { return Interval(); }

  Interval eval(const PrimExpr &e) const {
    if (!bounded(e.get()))
      return Interval{e, e, true};
    if (const auto *v = llvm::dyn_cast<TirVarNode>(e.get())) {
      auto [lo, hi] = ranges.lookup(v);
      return Interval{intImm(lo, v->dtype), intImm(hi, v->dtype), lo == hi};
    }
    const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get());
    if (!b)
      return everything();
    Interval x = eval(b->a), y = eval(b->b);
    auto both = [](const PrimExpr &p, const PrimExpr &q, auto f) {
      return p && q ? f(p, q) : PrimExpr();
    };
    auto fold = [](PrimOp op) {
      return [op](const PrimExpr &p, const PrimExpr &q) { return foldBinary(op, p, q); };
    };
    switch (b->op) {
    case PrimOp::Add:
      return Interval{both(x.lo, y.lo, fold(PrimOp::Add)), both(x.hi, y.hi, fold(PrimOp::Add))};
    case PrimOp::Sub:
      return Interval{both(x.lo, y.hi, fold(PrimOp::Sub)), both(x.hi, y.lo, fold(PrimOp::Sub))};
    case PrimOp::Max:
    case PrimOp::Min:
      return Interval{both(x.lo, y.lo, fold(b->op)), both(x.hi, y.hi, fold(b->op))};
    case PrimOp::Mul:
      return mul(x, y);
    case PrimOp::FloorDiv:
      // Only a positive constant divisor keeps the order of the bounds.
      if (y.point && asConstInt(y.lo.get()) && *asConstInt(y.lo.get()) > 0)
        return Interval{both(x.lo, y.lo, fold(PrimOp::FloorDiv)),
                        both(x.hi, y.lo, fold(PrimOp::FloorDiv))};
      return everything();
    default:
      return everything();
    }
  }

  /// A range times a single non-negative value scales both ends; two ranges
  /// of constants take the extreme corners; anything else is unbounded.
  Interval mul(Interval x, Interval y) const {
    if (x.point)
      std::swap(x, y);
    if (y.point && provablyNonNegative(y.lo))
      return Interval{x.lo ? mulFold(x.lo, y.lo) : PrimExpr(),
                      x.hi ? mulFold(x.hi, y.lo) : PrimExpr()};
    llvm::Optional<int64_t> a = x.lo ? asConstInt(x.lo.get()) : llvm::None;
    llvm::Optional<int64_t> b = x.hi ? asConstInt(x.hi.get()) : llvm::None;
    llvm::Optional<int64_t> c = y.lo ? asConstInt(y.lo.get()) : llvm::None;
    llvm::Optional<int64_t> d = y.hi ? asConstInt(y.hi.get()) : llvm::None;
    if (!a || !b || !c || !d)
      return everything();
    int64_t corners[] = {*a * *c, *a * *d, *b * *c, *b * *d};
    DataType t = x.lo->dtype;
    return Interval{intImm(*std::min_element(corners, corners + 4), t),
                    intImm(*std::max_element(corners, corners + 4), t)};
  }
};

class Planner {
public:
  Planner(const IRModule &module, const FunctionNode &fn) : module_(module), fn_(fn) {}

  llvm::Error readBounds();
  void collect(const SeqExprNode *seq);
  void allocate(const SeqExprNode *seq);
  llvm::Expected<SeqExpr> rewrite(const SeqExprNode *seq);
  bool planned() const { return plannedCount_ > 0; }
  int64_t storages() const { return static_cast<int64_t>(storagePool_.size()); }
  int64_t plannedCount() const { return plannedCount_; }
  int64_t dynamicOutputs() const { return dynamicOutputs_; }

private:
  Tokens tokensOf(const ExprNode *e) const;
  void discard(const ExprNode *e);
  void use(const ExprNode *e, const BindingBlockNode *block);
  void collectBinding(const BindingNode *b, const BindingBlockNode *block);
  Token *makeToken(const BindingNode *b, const CallNode &call, const BindingBlockNode *block);
  bool countsAsUse(const CallNode &call) const;
  bool isAlias(const CallNode &call) const;
  void assign(Token *t);
  void release(const CallNode &call);
  llvm::Expected<Var> emitStorage(PrimExpr bytes, Expr dev, const std::string &scope,
                                  DataType dtype, std::vector<Binding> &out);
  llvm::Expected<Binding> tensorIn(const BindingNode *b, Var storage, Expr shape);
  llvm::Expected<Binding> rewriteAlloc(const BindingNode *b, Token *t, std::vector<Binding> &out);
  llvm::Expected<llvm::Optional<Binding>> rewriteDynamicOutput(const BindingNode *b,
                                                               std::vector<Binding> &out);

  const IRModule &module_;
  const FunctionNode &fn_;
  BoundEvaluator bounds_;
  bool planDynamicOutput_ = false;
  llvm::DenseMap<const VarNode *, Tokens> varTokens_;
  llvm::DenseMap<const BindingNode *, Token *> allocTokens_;
  std::deque<Token> tokens_;
  std::deque<Storage> storagePool_;
  FreeList free_;
  int64_t plannedCount_ = 0;
  int64_t dynamicOutputs_ = 0;
};

/// Reads `attr` ({name: int}) into `out`; a non-integer value is an error.
static llvm::Error readIntDict(const FunctionNode &fn, llvm::StringRef attr,
                               llvm::StringMap<int64_t> &out) {
  const AttrValue *dict = fn.attr(attr);
  if (!dict)
    return llvm::Error::success();
  if (dict->kind() != AttrValue::Kind::Dict)
    return needsError(kPassName, attr + " to be a dict of integers");
  for (const auto &[name, value] : dict->getDict()) {
    if (value.kind() != AttrValue::Kind::Int)
      return needsError(kPassName,
                        "integer values in " + attr + "; '" + name + "' is not an integer");
    out[name] = value.getInt();
  }
  return llvm::Error::success();
}

llvm::Error Planner::readBounds() {
  llvm::StringMap<int64_t> upper, lower;
  if (llvm::Error err = readIntDict(fn_, "tir_var_upper_bound", upper))
    return err;
  if (llvm::Error err = readIntDict(fn_, "tir_var_lower_bound", lower))
    return err;
  llvm::StringSet<> nonNegative;
  if (const AttrValue *names = fn_.attr("tir_non_negative_var")) {
    if (names->kind() != AttrValue::Kind::Array)
      return needsError(kPassName, "tir_non_negative_var to be a list of names");
    for (const AttrValue &name : names->getArray()) {
      if (name.kind() != AttrValue::Kind::String)
        return needsError(kPassName, "tir_non_negative_var to be a list of names");
      nonNegative.insert(name.getString());
    }
  }
  if (const AttrValue *flag = fn_.attr(kMemoryPlanDynamicFuncOutputAttr))
    planDynamicOutput_ = (flag->kind() == AttrValue::Kind::Bool && flag->getBool()) ||
                         (flag->kind() == AttrValue::Kind::Int && flag->getInt() != 0);
  // Only the symbolic vars of the signature are bounded: an upper bound gives
  // the range [lower or 0, upper]; a lower bound alone (PR #18663) or
  // tir_non_negative_var only tells that the var is not negative.
  llvm::SmallVector<const TirVarNode *, 8> vars;
  for (const Var &p : fn_.params)
    collectTirVars(p->sinfo.get(), vars);
  for (const TirVarNode *v : vars) {
    auto lo = lower.find(v->name);
    auto hi = upper.find(v->name);
    if (hi != upper.end())
      bounds_.ranges[v] = {lo != lower.end() ? lo->second : 0, hi->second};
    if ((lo != lower.end() && lo->second >= 0) || nonNegative.count(v->name))
      bounds_.nonNegative.insert(v);
  }
  return llvm::Error::success();
}

Tokens Planner::tokensOf(const ExprNode *e) const {
  if (const auto *v = llvm::dyn_cast_or_null<VarNode>(e)) {
    auto it = varTokens_.find(v);
    return it == varTokens_.end() ? Tokens() : it->second;
  }
  if (const auto *t = llvm::dyn_cast_or_null<TupleNode>(e)) {
    Tokens out;
    out.isTuple = true;
    for (const Expr &f : t->fields)
      out.fields.push_back(tokensOf(f.get()));
    return out;
  }
  if (const auto *g = llvm::dyn_cast_or_null<TupleGetItemNode>(e)) {
    Tokens tuple = tokensOf(g->tuple.get());
    if (tuple.isTuple && g->index >= 0 && static_cast<size_t>(g->index) < tuple.fields.size())
      return tuple.fields[g->index];
    return tuple;
  }
  return Tokens();
}

void Planner::discard(const ExprNode *e) {
  llvm::SmallVector<Token *, 4> ts;
  tokensOf(e).collect(ts);
  for (Token *t : ts)
    t->discarded = true;
}

void Planner::use(const ExprNode *e, const BindingBlockNode *block) {
  llvm::SmallVector<Token *, 4> ts;
  tokensOf(e).collect(ts);
  for (Token *t : ts) {
    if (t->block != block)
      t->discarded = true;
    ++t->refs;
  }
}

bool Planner::countsAsUse(const CallNode &call) const {
  if (asCallTo(&call, ops::vmCallTIRDyn()) || llvm::isa<ExternFuncNode>(call.op.get()))
    return true;
  if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call.op.get()))
    if (const ModuleEntry *e = module_.lookup(gv->name))
      return e->asPrimFunc() != nullptr;
  return false;
}

bool Planner::isAlias(const CallNode &call) const {
  const OpInfo *op = call.opInfo();
  return (op && op->aliasesInput) || externSymbol(call) == "vm.builtin.reshape";
}

Token *Planner::makeToken(const BindingNode *b, const CallNode &call,
                          const BindingBlockNode *block) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(b->var->sinfo.get());
  const std::vector<PrimExpr> *dims = t ? t->shapeValues() : nullptr;
  if (!dims || t->dtype.isVoid() || call.args.size() < 3)
    return nullptr;
  Token tok;
  tok.alloc = b;
  tok.block = block;
  tok.dtype = t->dtype;
  const StringImmNode *scope = call.args.size() > 3 ? asString(call.args[3].get()) : nullptr;
  tok.scope = scope ? scope->value : "global";
  // coeff = element bytes × constant dims; the other dims, upper-bounded,
  // multiply onto 1 left to right; bytes = coeff * rest, folded as TVM does.
  int64_t coeff = t->dtype.storageBytes();
  PrimExpr rest = intImm(1);
  for (const PrimExpr &d : *dims) {
    PrimExpr bounded = bounds_.upperBound(d);
    if (llvm::Optional<int64_t> c = asConstInt(bounded.get()))
      coeff *= *c;
    else
      rest = mulFold(rest, bounded);
  }
  if (asConstInt(rest.get()))
    tok.bytes = coeff;
  else
    tok.symBytes = mulFold(intImm(coeff), rest); // TVM's `128 * n`, unsimplified
  tokens_.push_back(std::move(tok));
  return &tokens_.back();
}

void Planner::collectBinding(const BindingNode *b, const BindingBlockNode *block) {
  const ExprNode *value = b->value.get();
  if (const auto *call = llvm::dyn_cast<CallNode>(value)) {
    if (asCallTo(call, ops::builtinAllocTensor())) {
      if (Token *t = makeToken(b, *call, block)) {
        allocTokens_[b] = t;
        varTokens_[b->var.get()].leaves.push_back(t);
      }
      return;
    }
    if (isAlias(*call) && !call->args.empty()) {
      varTokens_[b->var.get()] = tokensOf(call->args[0].get());
      return;
    }
    // call_tir_dyn passes its arguments as one tuple: use() looks inside.
    bool counts = countsAsUse(*call);
    for (const Expr &a : call->args) {
      if (counts)
        use(a.get(), block);
      else
        discard(a.get());
    }
    return;
  }
  if (const auto *ifNode = llvm::dyn_cast<IfNode>(value)) {
    discard(ifNode->cond.get());
    collect(ifNode->thenBranch.get());
    collect(ifNode->elseBranch.get());
    return;
  }
  if (llvm::isa<VarNode, TupleNode, TupleGetItemNode>(value)) {
    // Aliases: `y = x`, match_cast (#20190), tuples and their fields.
    varTokens_[b->var.get()] = tokensOf(value);
    return;
  }
}

void Planner::collect(const SeqExprNode *seq) {
  for (const BindingBlock &block : seq->blocks)
    for (const Binding &b : block->bindings)
      collectBinding(b.get(), block.get());
  discard(seq->body.get());
}

void Planner::assign(Token *t) {
  ++plannedCount_;
  auto fresh = [&] {
    storagePool_.push_back(Storage{t->bytes, t->symBytes, t->dtype, t->scope, nullptr});
    t->storage = &storagePool_.back();
  };
  if (t->refs == 0)
    return fresh();
  Storage *best = nullptr;
  if (t->symBytes) {
    best = free_.takeSymbolic(t->symBytes, t->dtype, t->scope);
  } else {
    best = free_.takeStatic(t->bytes, t->dtype, t->scope);
    if (best && best->bytes < t->bytes)
      best->bytes = t->bytes; // A smaller storage is enlarged to fit.
  }
  if (!best)
    return fresh();
  t->storage = best;
}

void Planner::release(const CallNode &call) {
  if (!countsAsUse(call) || isAlias(call))
    return;
  llvm::SmallVector<Token *, 4> ts;
  for (const Expr &a : call.args)
    tokensOf(a.get()).collect(ts);
  for (Token *t : ts) {
    if (t->discarded || !t->storage || t->refs <= 0)
      continue;
    if (--t->refs == 0)
      free_.add(t->storage);
  }
}

void Planner::allocate(const SeqExprNode *seq) {
  for (const BindingBlock &block : seq->blocks)
    for (const Binding &b : block->bindings) {
      if (Token *t = allocTokens_.lookup(b.get())) {
        if (!t->discarded)
          assign(t);
        continue;
      }
      if (const auto *call = llvm::dyn_cast<CallNode>(b->value.get())) {
        release(*call);
        continue;
      }
      if (const auto *ifNode = llvm::dyn_cast<IfNode>(b->value.get())) {
        // #20191: each branch sees only storages that exist before the if.
        FreeList saved = free_;
        allocate(ifNode->thenBranch.get());
        free_ = saved;
        allocate(ifNode->elseBranch.get());
        free_ = std::move(saved);
      }
    }
}

/// `probe` with its inferred struct info, as a call the normalizer accepts.
static llvm::Expected<Expr> inferredCall(const IRModule &module, const Op &op,
                                         std::vector<Expr> args) {
  Ref<CallNode> probe = make<CallNode>(op, args);
  InferContext ictx{&module};
  llvm::Expected<StructInfo> sinfo = inferCallSInfo(*probe, ictx);
  if (!sinfo)
    return sinfo.takeError();
  return Expr(make<CallNode>(op, std::move(args), nullptr, std::vector<StructInfo>{}, *sinfo));
}

/// Emits `storage = R.memory.alloc_storage(R.shape([bytes]), dev, scope, dtype)`.
llvm::Expected<Var> Planner::emitStorage(PrimExpr bytes, Expr dev, const std::string &scope,
                                         DataType dtype, std::vector<Binding> &out) {
  llvm::Expected<Expr> alloc = inferredCall(
      module_, ops::memAllocStorage(),
      {shapeExpr({std::move(bytes)}), std::move(dev), stringImm(scope), dataTypeImm(dtype)});
  if (!alloc)
    return alloc.takeError();
  Var storage = make<VarNode>("storage", (*alloc)->sinfo);
  out.push_back(make<VarBindingNode>(storage, std::move(*alloc)));
  return storage;
}

/// `b`'s var bound to `R.memory.alloc_tensor(storage, 0, shape, dtype, dev)`.
llvm::Expected<Binding> Planner::tensorIn(const BindingNode *b, Var storage, Expr shape) {
  const auto *call = llvm::cast<CallNode>(b->value.get());
  llvm::Expected<Expr> tensor = inferredCall(
      module_, ops::memAllocTensor(),
      {std::move(storage), primValueInt(0), std::move(shape), call->args[1], call->args[2]});
  if (!tensor)
    return tensor.takeError();
  return Binding(make<VarBindingNode>(b->var, std::move(*tensor), b->loc));
}

llvm::Expected<Binding> Planner::rewriteAlloc(const BindingNode *b, Token *t,
                                              std::vector<Binding> &out) {
  const auto *call = llvm::cast<CallNode>(b->value.get());
  Storage *s = t->storage;
  if (!s->var) {
    llvm::Expected<Var> storage = emitStorage(s->symBytes ? s->symBytes : intImm(s->bytes),
                                              call->args[2], s->scope, s->dtype, out);
    if (!storage)
      return storage.takeError();
    s->var = *storage;
  }
  return tensorIn(b, s->var, call->args[0]);
}

/// With `relax.memory_plan_dynamic_func_output`, an unplanned alloc whose
/// shape is symbolic (typically a function output) still gets a storage of
/// its own, sized by the upper bounds: the product of the bounded dims left
/// to right, times the element bytes. Returns None when that does not apply.
llvm::Expected<llvm::Optional<Binding>> Planner::rewriteDynamicOutput(const BindingNode *b,
                                                                      std::vector<Binding> &out) {
  const auto *call = llvm::dyn_cast<CallNode>(b->value.get());
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(b->var->sinfo.get());
  const std::vector<PrimExpr> *dims = t ? t->shapeValues() : nullptr;
  if (!planDynamicOutput_ || !asCallTo(call, ops::builtinAllocTensor()) || !dims || dims->empty() ||
      t->dtype.isVoid() || call->args.size() < 3)
    return llvm::None;
  bool dynamic = false;
  for (const PrimExpr &d : *dims)
    dynamic |= !asConstInt(d.get());
  if (!dynamic)
    return llvm::None;
  PrimExpr bytes;
  for (const PrimExpr &d : *dims)
    bytes = bytes ? mulFold(bytes, bounds_.upperBound(d)) : bounds_.upperBound(d);
  bytes = mulFold(bytes, intImm(t->dtype.storageBytes()));
  const StringImmNode *scope = call->args.size() > 3 ? asString(call->args[3].get()) : nullptr;
  llvm::Expected<Var> storage =
      emitStorage(bytes, call->args[2], scope ? scope->value : "global", t->dtype, out);
  if (!storage)
    return storage.takeError();
  ++dynamicOutputs_;
  llvm::Expected<Binding> tensor = tensorIn(b, *storage, shapeExpr(*dims));
  if (!tensor)
    return tensor.takeError();
  return llvm::Optional<Binding>(*tensor);
}

llvm::Expected<SeqExpr> Planner::rewrite(const SeqExprNode *seq) {
  bool changed = false;
  std::vector<BindingBlock> blocks;
  for (const BindingBlock &block : seq->blocks) {
    std::vector<Binding> out;
    bool blockChanged = false;
    for (const Binding &b : block->bindings) {
      Token *t = allocTokens_.lookup(b.get());
      if (t && !t->discarded && t->storage) {
        llvm::Expected<Binding> nb = rewriteAlloc(b.get(), t, out);
        if (!nb)
          return nb.takeError();
        out.push_back(*nb);
        blockChanged = true;
        continue;
      }
      llvm::Expected<llvm::Optional<Binding>> dyn = rewriteDynamicOutput(b.get(), out);
      if (!dyn)
        return dyn.takeError();
      if (*dyn) {
        out.push_back(**dyn);
        blockChanged = true;
        continue;
      }
      const auto *ifNode = llvm::dyn_cast<IfNode>(b->value.get());
      if (!ifNode) {
        out.push_back(b);
        continue;
      }
      llvm::Expected<SeqExpr> thenB = rewrite(ifNode->thenBranch.get());
      if (!thenB)
        return thenB.takeError();
      llvm::Expected<SeqExpr> elseB = rewrite(ifNode->elseBranch.get());
      if (!elseB)
        return elseB.takeError();
      if (thenB->get() == ifNode->thenBranch.get() && elseB->get() == ifNode->elseBranch.get()) {
        out.push_back(b);
        continue;
      }
      Expr nif = make<IfNode>(ifNode->cond, *thenB, *elseB, ifNode->sinfo);
      if (const auto *cast = llvm::dyn_cast<MatchCastNode>(b.get()))
        out.push_back(make<MatchCastNode>(b->var, nif, cast->castSInfo, b->loc));
      else
        out.push_back(make<VarBindingNode>(b->var, nif, b->loc));
      blockChanged = true;
    }
    changed |= blockChanged;
    blocks.push_back(blockChanged
                         ? make<BindingBlockNode>(std::move(out), block->isDataflow, block->loc)
                         : block);
  }
  if (!changed)
    return SeqExpr(seq);
  return make<SeqExprNode>(std::move(blocks), seq->body, seq->sinfo);
}

/// A copy of `fn` with `body`, without `relax.memory_plan_dynamic_func_output`.
Function rebuild(const FunctionNode &fn, SeqExpr body) {
  Attrs attrs = fn.attrs;
  if (fn.attr(kMemoryPlanDynamicFuncOutputAttr)) {
    AttrDict kept;
    for (const auto &entry : fn.attrs->entries)
      if (entry.first != kMemoryPlanDynamicFuncOutputAttr)
        kept.push_back(entry);
    attrs = kept.empty() ? Attrs() : Attrs(make<AttrsNode>(std::move(kept)));
  }
  Function out = make<FunctionNode>(fn.params, std::move(body), fn.retSInfo, fn.isPure,
                                    std::move(attrs), fn.loc, fn.checkWellFormed);
  return out;
}

class StaticPlanBlockMemoryPass : public FunctionPass {
public:
  StaticPlanBlockMemoryPass() : FunctionPass(kPassName) {}

  PassStatistic plannedAllocs{this, "planned-allocs", "allocations planned onto storages"};
  PassStatistic storagesStat{this, "storages", "storages allocated"};
  PassStatistic dynamicOutputStorages{this, "dynamic-output-storages",
                                      "storages of dynamic function outputs"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    Planner planner(module(), *fn);
    if (llvm::Error err = planner.readBounds())
      return err;
    planner.collect(fn->body.get());
    planner.allocate(fn->body.get());
    llvm::Expected<SeqExpr> body = planner.rewrite(fn->body.get());
    if (!body)
      return body.takeError();
    if (planner.plannedCount()) {
      plannedAllocs += planner.plannedCount();
      storagesStat += planner.storages();
    }
    if (planner.dynamicOutputs())
      dynamicOutputStorages += planner.dynamicOutputs();
    bool dropAttr = fn->attr(kMemoryPlanDynamicFuncOutputAttr) != nullptr;
    if (body->get() == fn->body.get() && !dropAttr)
      return fn;
    return rebuild(*fn, *body);
  }
};

} // namespace

void graft::registerStaticPlanBlockMemoryPass() {
  PassInfo info;
  info.alias = "StaticPlanBlockMemory";
  info.summary = "Plans R.builtin.alloc_tensor onto shared R.memory.alloc_storage storages, "
                 "reusing dead ones (sizes in bytes, tir_var_upper_bound for symbolic dims)";
  info.preconditions =
      "none (allocations are pure); tir_var_upper_bound/lower_bound values must be integers";
  registerPass<StaticPlanBlockMemoryPass>(std::move(info));
}
