//===- transforms/VMShapeLower.cpp - Lower shapes to VM builtins ------------===//
//
// `vm-shape-lower` (TVM's VMShapeLower, reference tvm-passes-and-vm.md §3.2
// with its v0.23 deltas). Per Relax function:
//
//  1. Every distinct non-IntImm PrimExpr met (params' struct info, the body in
//     evaluation order, the return struct info) gets a slot of an int64 host
//     tensor, the shape heap, allocated by the function's first binding (or
//     `shape_heap = R.null_value()` when there are no slots). Slots are
//     numbered in order of first appearance, without pruning (v0.23).
//  2. Parameters, match_casts and the return value get runtime checks
//     (`vm.builtin.check_*_info`), then `vm.builtin.match_shape` /
//     `match_prim_value` calls that store each symbolic var into its slot on
//     first sight and assert everything else against the heap.
//  3. A composite expression whose vars have all been stored is computed by a
//     generated host PrimFunc `shape_func(H)` doing `H[slot] = expr`, built
//     as PrimFuncNode::heapStores.
//  4. Symbolic ShapeExprs and PrimValues in the body become
//     `vm.builtin.make_shape` / `make_prim_value` reading the heap. Struct
//     info annotations are not rewritten.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "analysis/Purity.h"

#include "ir/Diagnostics.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "ir/Walk.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>
#include <unordered_map>

using namespace graft;

static constexpr const char *kPassName = "vm-shape-lower";

namespace {

// The runtime's MatchShapeCode and MakeShapeCode.
enum MatchCode : int64_t { AssertEqualToImm = 0, StoreToHeap = 1, NoOp = 2, AssertEqualToLoad = 3 };
enum MakeCode : int64_t { UseImm = 0, LoadShape = 1 };

llvm::Error passError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::Twine(kPassName) + ": " + message);
}

//===----------------------------------------------------------------------===//
// Slots.
//===----------------------------------------------------------------------===//

struct Slot {
  PrimExpr expr;
  int64_t index = 0;
  /// Composite slots that read this var.
  llvm::SmallVector<Slot *, 2> users;
  /// Vars of a composite not stored yet.
  int outstanding = 0;
  bool computed = false;
};

/// Structural hash of a PrimExpr with vars by identity (ExprDeepEqual keys).
size_t hashPrim(const PrimExprNode *e) {
  size_t h =
      static_cast<size_t>(e->getKind()) * 1000003u ^ std::hash<std::string>()(e->dtype.str());
  auto mix = [&](size_t v) { h = h * 31 + v + 0x9e3779b9 + (h << 6) + (h >> 2); };
  if (const auto *i = llvm::dyn_cast<IntImmNode>(e))
    mix(std::hash<int64_t>()(i->value));
  else if (const auto *f = llvm::dyn_cast<FloatImmNode>(e))
    mix(std::hash<double>()(f->value));
  else if (llvm::isa<TirVarNode>(e))
    mix(std::hash<const void *>()(e));
  else if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e)) {
    mix(static_cast<size_t>(b->op));
    mix(hashPrim(b->a.get()));
    mix(hashPrim(b->b.get()));
  } else if (const auto *n = llvm::dyn_cast<PrimNotNode>(e))
    mix(hashPrim(n->a.get()));
  else if (const auto *c = llvm::dyn_cast<PrimCastNode>(e))
    mix(hashPrim(c->value.get()));
  else if (const auto *s = llvm::dyn_cast<PrimSelectNode>(e)) {
    mix(hashPrim(s->cond.get()));
    mix(hashPrim(s->trueValue.get()));
    mix(hashPrim(s->falseValue.get()));
  }
  return h;
}

struct PrimHash {
  size_t operator()(const PrimExprNode *e) const { return hashPrim(e); }
};
struct PrimEq {
  bool operator()(const PrimExprNode *a, const PrimExprNode *b) const {
    return primExprIdentical(a, b);
  }
};

struct SlotTable {
  std::vector<std::unique_ptr<Slot>> slots;
  std::unordered_map<const PrimExprNode *, Slot *, PrimHash, PrimEq> byExpr;

  Slot *find(const PrimExprNode *e) const {
    auto it = byExpr.find(e);
    return it == byExpr.end() ? nullptr : it->second;
  }
  void add(const PrimExpr &e) {
    // Constants need no slot (a FloatImm could not live in the int64 heap).
    if (!e || llvm::isa<IntImmNode>(e.get()) || llvm::isa<FloatImmNode>(e.get()) ||
        byExpr.count(e.get()))
      return;
    auto slot = std::make_unique<Slot>();
    slot->expr = e;
    slot->index = static_cast<int64_t>(slots.size());
    byExpr.emplace(e.get(), slot.get());
    slots.push_back(std::move(slot));
  }
};

/// Visits a function in the order v0.23's slot collector does: each param's
/// struct info, then the body in evaluation order (a call's sinfo_args, its
/// arguments, then its own struct info; a match_cast only its target struct
/// info), then the return struct info. Function struct info is opaque.
class SlotCollector {
public:
  explicit SlotCollector(SlotTable &table) : table_(table) {}

  void collect(const FunctionNode &fn) {
    for (const Var &p : fn.params) {
      sinfo(p->sinfo.get());
      expr(p.get());
    }
    expr(fn.body.get());
    sinfo(fn.retSInfo.get());
  }

private:
  void sinfo(const StructInfoNode *s) {
    if (!s)
      return;
    if (const auto *p = llvm::dyn_cast<PrimSInfoNode>(s)) {
      table_.add(p->value);
    } else if (const auto *sh = llvm::dyn_cast<ShapeSInfoNode>(s)) {
      if (sh->values)
        for (const PrimExpr &v : *sh->values)
          table_.add(v);
    } else if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(s)) {
      if (t->shape)
        expr(t->shape.get());
    } else if (const auto *tu = llvm::dyn_cast<TupleSInfoNode>(s)) {
      for (const StructInfo &f : tu->fields)
        sinfo(f.get());
    }
  }

  void expr(const ExprNode *e) {
    if (!e)
      return;
    switch (e->getKind()) {
    case NodeKind::Var:
    case NodeKind::DataflowVar:
      sinfo(e->sinfo.get());
      return;
    case NodeKind::ShapeExpr:
      for (const PrimExpr &v : llvm::cast<ShapeExprNode>(e)->values)
        table_.add(v);
      break;
    case NodeKind::PrimValue:
      table_.add(llvm::cast<PrimValueNode>(e)->value);
      break;
    case NodeKind::Tuple:
      for (const Expr &f : llvm::cast<TupleNode>(e)->fields)
        expr(f.get());
      break;
    case NodeKind::TupleGetItem:
      expr(llvm::cast<TupleGetItemNode>(e)->tuple.get());
      break;
    case NodeKind::Call: {
      const auto *call = llvm::cast<CallNode>(e);
      expr(call->op.get());
      for (const StructInfo &s : call->sinfoArgs)
        sinfo(s.get());
      for (const Expr &a : call->args)
        expr(a.get());
      break;
    }
    case NodeKind::If: {
      const auto *i = llvm::cast<IfNode>(e);
      expr(i->cond.get());
      expr(i->thenBranch.get());
      expr(i->elseBranch.get());
      break;
    }
    case NodeKind::SeqExpr: {
      const auto *seq = llvm::cast<SeqExprNode>(e);
      for (const BindingBlock &block : seq->blocks)
        for (const Binding &b : block->bindings) {
          if (const auto *mc = llvm::dyn_cast<MatchCastNode>(b.get()))
            sinfo(mc->castSInfo.get());
          else
            expr(b->value.get());
        }
      expr(seq->body.get());
      break;
    }
    default:
      return; // Constants, imms, globals, ops; functions are self-contained.
    }
    sinfo(e->sinfo.get());
  }

  SlotTable &table_;
};

/// The vars of `e`, each once, in first-occurrence order.
llvm::SmallVector<const TirVarNode *, 4> distinctVars(const PrimExprNode *e) {
  llvm::SmallVector<const TirVarNode *, 4> out;
  forEachTirVar(e, [&](const TirVarNode *v) {
    if (!llvm::is_contained(out, v))
      out.push_back(v);
  });
  return out;
}

//===----------------------------------------------------------------------===//
// shape_func construction.
//===----------------------------------------------------------------------===//

/// `e` with each var replaced by the PrimFunc's load var of its slot
/// (created on first use, so heapLoads are in first-use order), rebuilt
/// without simplification: the shape_func stores the expression as written.
PrimExpr withHeapLoads(const PrimExpr &e, const SlotTable &table, PrimFuncNode &f) {
  if (const auto *v = llvm::dyn_cast<TirVarNode>(e.get())) {
    Slot *slot = table.find(v);
    int64_t index = slot ? slot->index : -1;
    for (const auto &load : f.heapLoads)
      if (load.first == index)
        return load.second;
    TirVar var = make<TirVarNode>(v->name, DataType::int64());
    f.heapLoads.emplace_back(index, var);
    return var;
  }
  if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get())) {
    PrimExpr lhs = withHeapLoads(b->a, table, f);
    return make<PrimBinaryNode>(b->op, lhs, withHeapLoads(b->b, table, f), b->dtype);
  }
  if (const auto *n = llvm::dyn_cast<PrimNotNode>(e.get()))
    return make<PrimNotNode>(withHeapLoads(n->a, table, f));
  if (const auto *c = llvm::dyn_cast<PrimCastNode>(e.get()))
    return make<PrimCastNode>(c->dtype, withHeapLoads(c->value, table, f));
  if (const auto *s = llvm::dyn_cast<PrimSelectNode>(e.get())) {
    PrimExpr cond = withHeapLoads(s->cond, table, f);
    PrimExpr t = withHeapLoads(s->trueValue, table, f);
    return make<PrimSelectNode>(cond, t, withHeapLoads(s->falseValue, table, f));
  }
  return e;
}

/// The host PrimFunc TVM v0.23 generates to store `slots` into a heap of
/// `heapSize` elements: `def shape_func(H: T.Buffer((T.int64(N),), "int64"))`
/// doing `H[slot] = expr`, private, attrs only `tir.is_host_func`.
PrimFunc buildShapeFunc(llvm::ArrayRef<Slot *> slots, const SlotTable &table, int64_t heapSize) {
  auto pf = draft<PrimFuncNode>();
  PrimFuncNode &f = *pf;
  f.params.push_back(
      PrimParam{"H", PrimParam::Kind::Buffer, {intImm(heapSize)}, DataType::int64()});
  f.attrs = make<AttrsNode>(AttrDict{{"tir.is_host_func", AttrValue::boolean(true)}});
  f.isPrivate = true;
  f.isPure = false; // It stores into its parameter buffer.
  for (const Slot *slot : slots)
    f.heapStores.emplace_back(slot->index, withHeapLoads(slot->expr, table, f));
  return pf.publish();
}

//===----------------------------------------------------------------------===//
// The per-function lowering.
//===----------------------------------------------------------------------===//

/// A pending `match_shape` / `match_prim_value`.
struct MatchTodo {
  Expr input; ///< May be an unbound tuple access, bound on first use.
  std::vector<PrimExpr> pattern;
  std::string errCtx;
};

/// The PrimFuncs generated for the whole module, shared when structurally
/// equal as TVM's BlockBuilder::AddFunction does.
struct ShapeFuncs {
  llvm::StringSet<> takenNames;
  std::vector<std::pair<GlobalVar, PrimFunc>> added;
};

class ShapeLowerer : public ExprMutator {
public:
  ShapeLowerer(const IRModule &module, bool emitErrCtx, ShapeFuncs &funcs)
      : ExprMutator(&module), emitErrCtx_(emitErrCtx), funcs_(funcs) {}

  llvm::Expected<Function> lower(const GlobalVarNode &gvar, const FunctionNode &fn);
  llvm::Expected<Expr> lowerReturnValue(const FunctionNode &fn);

  int64_t checksEmitted = 0, matchesEmitted = 0;

private:
  llvm::Expected<Expr> rewriteExpr(const Expr &e) override;
  llvm::Error rewriteBinding(const BindingNode *binding) override;
  StructInfo remapShapeVars(const StructInfo &s) const;

  llvm::Error populateSlotInfo();
  llvm::Error emitHeap();
  llvm::Error checkParams(const FunctionNode &fn);
  /// RunMatch, compute, RunMatch: the full match point of TVM.
  llvm::Error settle(std::vector<MatchTodo> todos);

  llvm::Error checkMatchCast(const StructInfoNode *s, const Expr &value, bool alwaysCheck,
                             bool dynamicOnly, const std::string &ctx,
                             std::vector<MatchTodo> &todos);
  llvm::Error checkTensor(const TensorSInfoNode &t, const Expr &value, bool alwaysCheck,
                          bool dynamicOnly, const std::string &ctx, std::vector<MatchTodo> &todos);
  llvm::Error checkTuple(const TupleSInfoNode &t, const Expr &value, bool alwaysCheck,
                         bool dynamicOnly, const std::string &ctx, std::vector<MatchTodo> &todos);
  llvm::Expected<std::vector<MatchTodo>> runMatch(const std::vector<MatchTodo> &todos,
                                                  bool requireComputed);
  llvm::Error emitOutstandingCompute();

  llvm::Expected<Expr> makeShape(const ShapeExprNode &shape);
  llvm::Expected<Expr> makePrimValue(const PrimValueNode &value);
  llvm::Expected<std::pair<int64_t, int64_t>> loadArg(const PrimExprNode *e);

  Expr tupleGetItem(const Expr &value, int index);
  llvm::Expected<Expr> materialize(const Expr &e);
  llvm::Error emitBuiltin(llvm::StringRef name, std::vector<Expr> args);
  Expr errCtx(const std::string &ctx) const { return stringImm(emitErrCtx_ ? ctx : ""); }

  bool emitErrCtx_;
  ShapeFuncs &funcs_;
  std::string fnName_;
  SlotTable table_;
  Var heap_;
  std::vector<Slot *> readyVars_;
  /// Tuple accesses bound at the current match point (TVM's per-block
  /// normalization memo): the same access binds once.
  llvm::DenseMap<const ExprNode *, std::pair<Expr, Expr>> bound_;
};

llvm::Expected<Function> ShapeLowerer::lower(const GlobalVarNode &gvar, const FunctionNode &fn) {
  fnName_ = gvar.name;
  table_ = SlotTable();
  readyVars_.clear();
  SlotCollector(table_).collect(fn);
  if (llvm::Error err = populateSlotInfo())
    return err;

  BlockBuilder::FunctionScope scope(builder_, fn.params);
  std::vector<BindingBlock> blocks;
  {
    BlockBuilder::BlockScope prologue(builder_, /*isDataflow=*/false);
    if (llvm::Error err = emitHeap())
      return err;
    if (llvm::Error err = checkParams(fn))
      return err;
    blocks.push_back(prologue.finish());
  }
  for (const BindingBlock &block : fn.body->blocks) {
    BlockBuilder::BlockScope blockScope(builder_, block->isDataflow);
    if (llvm::Error err = rewriteBlock(block.get()))
      return err;
    blocks.push_back(blockScope.finish());
  }
  BlockBuilder::BlockScope epilogue(builder_, /*isDataflow=*/false);
  llvm::Expected<Expr> body = lowerReturnValue(fn);
  if (!body)
    return body.takeError();
  blocks.push_back(epilogue.finish());
  llvm::Expected<SeqExpr> seq = builder_.finalizeSeqExpr(std::move(blocks), *body);
  if (!seq)
    return seq.takeError();
  StructInfo ret =
      BlockBuilder::functionRetSInfo(fn.retSInfo.get(), (*seq)->sinfo.get(), fn.params);
  return make<FunctionNode>(fn.params, *seq, std::move(ret), fn.isPure, fn.attrs, fn.loc,
                            fn.checkWellFormed);
}

/// The function's return value, its shape checks emitted: every shape
/// computation it needs must already be done here.
llvm::Expected<Expr> ShapeLowerer::lowerReturnValue(const FunctionNode &fn) {
  auto clearBound = llvm::make_scope_exit([&] { bound_.clear(); });
  llvm::Expected<Expr> body = rewriteExpr(fn.body->body);
  if (body)
    body = builder_.normalizeArgument(*body);
  if (!body)
    return body;
  std::string ctx = emitErrCtx_ ? "ErrorContext(fn=" + fnName_ + ", loc=return, annotation=" +
                                      printStructInfo(fn.retSInfo.get()) + ") "
                                : std::string();
  std::vector<MatchTodo> todos;
  if (llvm::Error err = checkMatchCast(fn.retSInfo.get(), *body, false, false, ctx, todos))
    return err;
  llvm::Expected<std::vector<MatchTodo>> left = runMatch(todos, true);
  if (!left)
    return left.takeError();
  return body;
}

llvm::Error ShapeLowerer::populateSlotInfo() {
  for (const auto &slot : table_.slots) {
    if (llvm::isa<TirVarNode>(slot->expr.get()))
      continue;
    for (const TirVarNode *v : distinctVars(slot->expr.get())) {
      Slot *varSlot = table_.find(v);
      if (!varSlot)
        return passError("Var " + v->name + " is not defined in the function '" + fnName_ +
                         "' but is referenced by " + toString(slot->expr.get()));
      varSlot->users.push_back(slot.get());
      ++slot->outstanding;
    }
  }
  return llvm::Error::success();
}

llvm::Error ShapeLowerer::emitHeap() {
  int64_t n = static_cast<int64_t>(table_.slots.size());
  Expr value;
  StructInfo sinfo;
  if (n > 0) {
    sinfo = tensorSInfoNDim(1, DataType::int64());
    value = make<CallNode>(ops::callBuiltinWithCtx(),
                           std::vector<Expr>{make<ExternFuncNode>("vm.builtin.alloc_shape_heap"),
                                             tupleExpr({primValueInt(n)})},
                           nullptr, std::vector<StructInfo>{sinfo});
  } else {
    sinfo = objectSInfo();
    value = make<CallNode>(ops::nullValue(), std::vector<Expr>{});
  }
  llvm::Expected<Expr> normalized = builder_.normalize(value);
  if (!normalized)
    return normalized.takeError();
  heap_ = make<VarNode>("shape_heap", sinfo);
  return builder_.emitBinding(make<VarBindingNode>(heap_, *normalized));
}

llvm::Error ShapeLowerer::checkParams(const FunctionNode &fn) {
  size_t numInput = fn.params.size();
  if (const AttrValue *a = fn.attr("num_input"))
    if (a->kind() == AttrValue::Kind::Int && a->getInt() >= 0)
      numInput = static_cast<size_t>(a->getInt());
  std::vector<MatchTodo> todos;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Var &p = fn.params[i];
    std::string ctx = emitErrCtx_
                          ? llvm::formatv("ErrorContext(fn={0}, loc=param[{1}], "
                                          "param={2}, annotation={3}) ",
                                          fnName_, i, p->name, printStructInfo(p->sinfo.get()))
                                .str()
                          : std::string();
    if (llvm::Error err = checkMatchCast(p->sinfo.get(), p, true, i >= numInput, ctx, todos))
      return err;
  }
  return settle(std::move(todos));
}

llvm::Error ShapeLowerer::settle(std::vector<MatchTodo> todos) {
  llvm::Expected<std::vector<MatchTodo>> left = runMatch(todos, false);
  if (!left)
    return left.takeError();
  if (llvm::Error err = emitOutstandingCompute())
    return err;
  llvm::Expected<std::vector<MatchTodo>> none = runMatch(*left, true);
  bound_.clear();
  return none ? llvm::Error::success() : none.takeError();
}

//===----------------------------------------------------------------------===//
// Checks (TVM's CheckMatchCast).
//===----------------------------------------------------------------------===//

llvm::Error ShapeLowerer::checkMatchCast(const StructInfoNode *s, const Expr &value,
                                         bool alwaysCheck, bool dynamicOnly, const std::string &ctx,
                                         std::vector<MatchTodo> &todos) {
  const StructInfoNode *have = value->sinfo.get();
  // A value whose static struct info already satisfies the target needs no
  // check at a match_cast or a return.
  if (!alwaysCheck && have && isBaseOf(s, have))
    return llvm::Error::success();
  auto needs = [&](const StructInfo &coarse) {
    return alwaysCheck || !have || !isBaseOf(coarse.get(), have);
  };
  if (const auto *p = llvm::dyn_cast<PrimSInfoNode>(s)) {
    if (needs(primSInfo(p->dtype)))
      if (llvm::Error err = emitBuiltin("vm.builtin.check_prim_value_info",
                                        {value, dataTypeImm(p->dtype), errCtx(ctx)}))
        return err;
    // match_prim_value compares int64s: a float constant is checked by its
    // dtype only.
    if (p->value && !llvm::isa<FloatImmNode>(p->value.get()))
      todos.push_back({value, {p->value}, ctx});
    return llvm::Error::success();
  }
  if (const auto *sh = llvm::dyn_cast<ShapeSInfoNode>(s)) {
    if (needs(shapeSInfoNDim(sh->ndim)))
      if (llvm::Error err = emitBuiltin("vm.builtin.check_shape_info",
                                        {value, primValueInt(sh->ndim), errCtx(ctx)}))
        return err;
    if (sh->values)
      todos.push_back({value, *sh->values, ctx});
    return llvm::Error::success();
  }
  if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(s))
    return checkTensor(*t, value, alwaysCheck, dynamicOnly, ctx, todos);
  if (const auto *tu = llvm::dyn_cast<TupleSInfoNode>(s))
    return checkTuple(*tu, value, alwaysCheck, dynamicOnly, ctx, todos);
  if (llvm::isa<FuncSInfoNode>(s)) {
    if (!alwaysCheck && have && llvm::isa<FuncSInfoNode>(have))
      return llvm::Error::success();
    return emitBuiltin("vm.builtin.check_func_info", {value, errCtx(ctx)});
  }
  return llvm::Error::success(); // R.Object: anything goes.
}

llvm::Error ShapeLowerer::checkTensor(const TensorSInfoNode &t, const Expr &value, bool alwaysCheck,
                                      bool dynamicOnly, const std::string &ctx,
                                      std::vector<MatchTodo> &todos) {
  const std::vector<PrimExpr> *dims = t.shapeValues();
  // A shape held in a var (`R.Tensor(s)`) is matched against the values of
  // the var's own struct info when they are known; without them only the
  // tensor info is checked. (TVM's matcher has no case for it.)
  if (!dims && t.shape)
    if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(t.shape->sinfo.get()))
      if (ss->values)
        dims = &*ss->values;
  if (dynamicOnly && dims &&
      llvm::all_of(*dims, [](const PrimExpr &d) { return llvm::isa<IntImmNode>(d.get()); }))
    return llvm::Error::success(); // A static weight: checked once, elsewhere.
  const StructInfoNode *have = value->sinfo.get();
  if (alwaysCheck || !have || !isBaseOf(tensorSInfoNDim(t.ndim, t.dtype).get(), have))
    if (llvm::Error err =
            emitBuiltin("vm.builtin.check_tensor_info",
                        {value, primValueInt(t.ndim), dataTypeImm(t.dtype), errCtx(ctx)}))
      return err;
  if (dims)
    todos.push_back({value, *dims, ctx});
  return llvm::Error::success();
}

llvm::Error ShapeLowerer::checkTuple(const TupleSInfoNode &t, const Expr &value, bool alwaysCheck,
                                     bool dynamicOnly, const std::string &ctx,
                                     std::vector<MatchTodo> &todos) {
  const auto *have = llvm::dyn_cast_or_null<TupleSInfoNode>(value->sinfo.get());
  if (have && have->fields.size() != t.fields.size())
    return passError(ctx + "during match-cast we find tuple size mismatch (" +
                     std::to_string(have->fields.size()) + " fields, expected " +
                     std::to_string(t.fields.size()) + ") in function '" + fnName_ + "'");
  if (alwaysCheck || !have)
    if (llvm::Error err =
            emitBuiltin("vm.builtin.check_tuple_info",
                        {value, primValueInt(static_cast<int64_t>(t.fields.size())), errCtx(ctx)}))
      return err;
  for (size_t i = 0; i < t.fields.size(); ++i)
    if (llvm::Error err =
            checkMatchCast(t.fields[i].get(), tupleGetItem(value, static_cast<int>(i)), alwaysCheck,
                           dynamicOnly, ctx, todos))
      return err;
  return llvm::Error::success();
}

/// Field `index` of `value`: the field itself for a tuple literal, a tuple
/// access for a tuple-typed value, else the runtime's tuple_getitem.
Expr ShapeLowerer::tupleGetItem(const Expr &value, int index) {
  if (const auto *t = llvm::dyn_cast<TupleNode>(value.get()))
    return t->fields[index];
  if (llvm::isa_and_nonnull<TupleSInfoNode>(value->sinfo.get()))
    return make<TupleGetItemNode>(value, index);
  return make<CallNode>(make<ExternFuncNode>("vm.builtin.tuple_getitem"),
                        std::vector<Expr>{value, primValueInt(index)}, nullptr,
                        std::vector<StructInfo>{objectSInfo()}, objectSInfo());
}

/// Binds an unbound tuple access (and what it reads) before its first use;
/// later uses at the same match point read the same var.
llvm::Expected<Expr> ShapeLowerer::materialize(const Expr &e) {
  if (!llvm::isa<TupleGetItemNode>(e.get()) && !llvm::isa<CallNode>(e.get()))
    return e;
  auto it = bound_.find(e.get());
  if (it != bound_.end())
    return it->second.second;
  Expr value;
  if (const auto *tgi = llvm::dyn_cast<TupleGetItemNode>(e.get())) {
    llvm::Expected<Expr> tuple = materialize(tgi->tuple);
    if (!tuple)
      return tuple;
    value = tuple->get() == tgi->tuple.get() ? e : Expr(make<TupleGetItemNode>(*tuple, tgi->index));
  } else {
    const auto *call = llvm::cast<CallNode>(e.get());
    llvm::Expected<Expr> arg = materialize(call->args[0]);
    if (!arg)
      return arg;
    value = arg->get() == call->args[0].get()
                ? e
                : Expr(make<CallNode>(call->op, std::vector<Expr>{*arg, call->args[1]}, nullptr,
                                      call->sinfoArgs, call->sinfo));
  }
  llvm::Expected<Var> var = builder_.emit(value, "gv");
  if (!var)
    return var.takeError();
  bound_[e.get()] = {e, *var};
  return Expr(*var);
}

llvm::Error ShapeLowerer::emitBuiltin(llvm::StringRef name, std::vector<Expr> args) {
  for (Expr &a : args) {
    llvm::Expected<Expr> m = materialize(a);
    if (!m)
      return m.takeError();
    a = *m;
  }
  Expr call = make<CallNode>(make<ExternFuncNode>(name.str()), std::move(args), nullptr,
                             std::vector<StructInfo>{voidSInfo()});
  llvm::Expected<Var> var = builder_.emit(call, "_");
  if (!var)
    return var.takeError();
  if (name == "vm.builtin.match_shape" || name == "vm.builtin.match_prim_value")
    ++matchesEmitted;
  else
    ++checksEmitted;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Matching and computing (TVM's RunMatch, EmitOutstandingPrimExprCompute).
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<MatchTodo>> ShapeLowerer::runMatch(const std::vector<MatchTodo> &todos,
                                                              bool requireComputed) {
  std::vector<MatchTodo> outstanding;
  for (const MatchTodo &item : todos) {
    bool isPrim = llvm::isa_and_nonnull<PrimSInfoNode>(item.input->sinfo.get());
    std::vector<Expr> args{item.input, heap_};
    if (!isPrim)
      args.push_back(primValueInt(static_cast<int64_t>(item.pattern.size())));
    bool allNop = true, anyNop = false;
    for (const PrimExpr &dim : item.pattern) {
      int64_t code = NoOp, operand = 0;
      if (auto imm = asConstInt(dim.get())) {
        code = AssertEqualToImm;
        operand = *imm;
      } else {
        Slot *slot = table_.find(dim.get());
        if (!slot)
          return passError("internal error: no slot for " + toString(dim.get()));
        if (slot->computed) {
          code = AssertEqualToLoad;
          operand = slot->index;
        } else if (requireComputed) {
          return passError("PrimExpr " + toString(dim.get()) + " in function '" + fnName_ +
                           "' is needed before its variables are known");
        } else if (llvm::isa<TirVarNode>(dim.get())) {
          slot->computed = true;
          readyVars_.push_back(slot);
          code = StoreToHeap;
          operand = slot->index;
        }
      }
      allNop &= code == NoOp;
      anyNop |= code == NoOp;
      args.push_back(primValueInt(code));
      args.push_back(primValueInt(operand));
    }
    if (anyNop)
      outstanding.push_back(item);
    args.push_back(errCtx(item.errCtx));
    if (!allNop)
      if (llvm::Error err = emitBuiltin(
              isPrim ? "vm.builtin.match_prim_value" : "vm.builtin.match_shape", std::move(args)))
        return err;
  }
  return outstanding;
}

llvm::Error ShapeLowerer::emitOutstandingCompute() {
  std::vector<Slot *> toCompute;
  for (Slot *ready : readyVars_)
    for (Slot *user : ready->users)
      if (--user->outstanding == 0)
        toCompute.push_back(user);
  readyVars_.clear();
  if (toCompute.empty())
    return llvm::Error::success();
  for (Slot *slot : toCompute)
    slot->computed = true;

  int64_t heapSize = static_cast<int64_t>(table_.slots.size());
  PrimFunc pf = buildShapeFunc(toCompute, table_, heapSize);
  GlobalVar gv;
  for (const auto &[known, existing] : funcs_.added)
    if (structuralEqual(existing.get(), pf.get()))
      gv = known;
  if (!gv) {
    std::string name = "shape_func";
    for (int i = 1; funcs_.takenNames.count(name); ++i)
      name = "shape_func" + std::to_string(i);
    funcs_.takenNames.insert(name);
    gv = make<GlobalVarNode>(name, pf->relaxSInfo());
    funcs_.added.emplace_back(gv, pf);
  }
  llvm::Expected<Var> var = builder_.emit(make<CallNode>(gv, std::vector<Expr>{heap_}), "_");
  return var ? llvm::Error::success() : var.takeError();
}

//===----------------------------------------------------------------------===//
// Body rewriting.
//===----------------------------------------------------------------------===//

llvm::Expected<std::pair<int64_t, int64_t>> ShapeLowerer::loadArg(const PrimExprNode *e) {
  if (auto imm = asConstInt(e))
    return std::make_pair(int64_t(UseImm), *imm);
  Slot *slot = table_.find(e);
  if (!slot || !slot->computed)
    return passError("PrimExpr " + toString(e) + " in function '" + fnName_ +
                     "' has not been computed");
  return std::make_pair(int64_t(LoadShape), slot->index);
}

llvm::Expected<Expr> ShapeLowerer::makeShape(const ShapeExprNode &shape) {
  std::vector<Expr> args{heap_, primValueInt(static_cast<int64_t>(shape.values.size()))};
  for (const PrimExpr &v : shape.values) {
    auto arg = loadArg(v.get());
    if (!arg)
      return arg.takeError();
    args.push_back(primValueInt(arg->first));
    args.push_back(primValueInt(arg->second));
  }
  return builder_.normalize(make<CallNode>(
      make<ExternFuncNode>("vm.builtin.make_shape"), std::move(args), nullptr,
      std::vector<StructInfo>{shapeSInfoNDim(static_cast<int>(shape.values.size()))}));
}

llvm::Expected<Expr> ShapeLowerer::makePrimValue(const PrimValueNode &value) {
  auto arg = loadArg(value.value.get());
  if (!arg)
    return arg.takeError();
  return builder_.normalize(
      make<CallNode>(make<ExternFuncNode>("vm.builtin.make_prim_value"),
                     std::vector<Expr>{heap_, primValueInt(arg->first), primValueInt(arg->second)},
                     nullptr, std::vector<StructInfo>{value.sinfo}));
}

llvm::Expected<Expr> ShapeLowerer::rewriteExpr(const Expr &e) {
  if (const auto *s = llvm::dyn_cast_or_null<ShapeExprNode>(e.get())) {
    if (llvm::all_of(s->values, [](const PrimExpr &v) { return llvm::isa<IntImmNode>(v.get()); }))
      return e;
    return makeShape(*s);
  }
  if (const auto *p = llvm::dyn_cast_or_null<PrimValueNode>(e.get())) {
    if (llvm::isa<IntImmNode>(p->value.get()) || llvm::isa<FloatImmNode>(p->value.get()))
      return e;
    return makePrimValue(*p);
  }
  return ExprMutator::rewriteExpr(e);
}

llvm::Error ShapeLowerer::rewriteBinding(const BindingNode *binding) {
  const auto *mc = llvm::dyn_cast<MatchCastNode>(binding);
  if (!mc)
    return ExprMutator::rewriteBinding(binding);
  llvm::Expected<Expr> value = rewriteExpr(mc->value);
  if (!value)
    return value.takeError();
  // Printing struct info costs; skip it when the strings are not emitted.
  std::string ctx =
      emitErrCtx_
          ? "ErrorContext(match_cast, struct_info=" + printStructInfo(mc->castSInfo.get()) + ") "
          : std::string();
  std::vector<MatchTodo> todos;
  if (llvm::Error err = checkMatchCast(mc->castSInfo.get(), *value, false, false, ctx, todos))
    return err;
  if (llvm::Error err = settle(std::move(todos)))
    return err;
  // The match_cast stays; codegen turns it into a plain copy. A shape var
  // in its struct info follows its binding when that was replaced (a
  // ShapeExpr that became make_shape), as TVM's mutator remaps it.
  StructInfo cast = remapShapeVars(mc->castSInfo);
  StructInfo varSInfo = remapShapeVars(mc->var->sinfo);
  if (cast.get() == mc->castSInfo.get() && varSInfo.get() == mc->var->sinfo.get())
    return ExprMutator::rewriteBinding(binding);
  const VarNode *old = mc->var.get();
  Var fresh = old->isDataflow() ? Var(make<DataflowVarNode>(old->name, varSInfo, old->loc))
                                : make<VarNode>(old->name, varSInfo, old->loc);
  remapVar(old, fresh);
  return builder_.emitBinding(make<MatchCastNode>(fresh, *value, std::move(cast), mc->loc));
}

StructInfo ShapeLowerer::remapShapeVars(const StructInfo &s) const {
  if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s.get())) {
    const auto *var = llvm::dyn_cast_or_null<VarNode>(t->shape.get());
    if (!var)
      return s;
    Expr to = lookupVar(var);
    if (to.get() == var)
      return s;
    return make<TensorSInfoNode>(std::move(to), t->dtype, t->ndim, t->vdevice);
  }
  if (const auto *tu = llvm::dyn_cast_or_null<TupleSInfoNode>(s.get())) {
    std::vector<StructInfo> fields;
    bool changed = false;
    for (const StructInfo &f : tu->fields) {
      fields.push_back(remapShapeVars(f));
      changed |= fields.back().get() != f.get();
    }
    return changed ? StructInfo(make<TupleSInfoNode>(std::move(fields))) : s;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// The pass.
//===----------------------------------------------------------------------===//

class VMShapeLowerPass : public ModulePass {
public:
  VMShapeLowerPass() : ModulePass(kPassName) {}

  PassOption<bool> emitErrCtx{
      this, "emit-err-ctx", "put an ErrorContext(...) string into every check (false: \"\")", true};
  PassStatistic checksStat{this, "checks", "shape and type checks emitted"};
  PassStatistic matchesStat{this, "matches", "symbolic values matched into the shape heap"};
  PassStatistic shapeFuncs{this, "shape-funcs", "host shape_func PrimFuncs generated"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) override {
    for (const ModuleEntry &e : module.entries())
      if (const FunctionNode *fn = e.asFunction()) {
        if (containsNode<FunctionNode>(fn, [&](const FunctionNode *f) { return f != fn; }))
          return passNeeds("function '" + e.gvar->name + "' holds a nested function");
      }
    ShapeFuncs funcs;
    for (const ModuleEntry &e : module.entries())
      funcs.takenNames.insert(e.gvar->name);
    int64_t checks = 0, matches = 0;
    llvm::Expected<bool> changed = rewriteFunctions(
        module, [&](const GlobalVar &gvar, const Function &fn) -> llvm::Expected<Function> {
          ShapeLowerer lowerer(module, emitErrCtx, funcs);
          llvm::Expected<Function> out = lowerer.lower(*gvar, *fn);
          checks += lowerer.checksEmitted;
          matches += lowerer.matchesEmitted;
          if (!out || out->get() == fn.get())
            return out;
          if (llvm::Error err = checkCanEmit(*fn, **out, gvar->name))
            return err;
          return out;
        });
    if (!changed)
      return changed.takeError();
    for (auto &[gv, pf] : funcs.added)
      module.add(gv, pf);
    checksStat += checks;
    matchesStat += matches;
    shapeFuncs += static_cast<int64_t>(funcs.added.size());
    return *changed || !funcs.added.empty();
  }

private:
  /// The checks and shape-heap calls are impure. In the finalize pipeline
  /// remove-purity-checking and to-non-dataflow run first; alone, the pass
  /// refuses instead of leaving impure calls where they are not allowed.
  static llvm::Error checkCanEmit(const FunctionNode &before, const FunctionNode &after,
                                  llvm::StringRef name) {
    if (before.isPure && !hasForcePure(before))
      return needsError(kPassName, "function '" + name +
                                       "' to be impure or relax.force_pure (run "
                                       "remove-purity-checking first)");
    bool impureInDataflow = containsNode<BindingBlockNode>(&after, [](const BindingBlockNode *b) {
      return b->isDataflow && llvm::any_of(b->bindings, [](const Binding &x) {
               return containsImpureCall(x->value.get());
             });
    });
    if (impureInDataflow)
      return needsError(kPassName, "no dataflow block where it emits a check (run "
                                   "to-non-dataflow first); function '" +
                                       name + "'");
    return llvm::Error::success();
  }

  static llvm::Error passNeeds(const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::Twine("pass ") + kPassName +
                                       " needs lambda-lifted functions (" + why + ")");
  }
};

} // namespace

void graft::registerVMShapeLowerPass() {
  PassInfo info;
  info.alias = "VMShapeLower";
  info.summary = "Lowers boundary type checks, match_casts and symbolic shapes to VM shape-heap "
                 "builtins and host shape_func PrimFuncs";
  info.preconditions = "no nested functions (run after lambda lifting); a function it changes is "
                       "impure or relax.force_pure and emits no check into a dataflow block "
                       "(run remove-purity-checking and to-non-dataflow first)";
  registerPass<VMShapeLowerPass>(std::move(info));
}
