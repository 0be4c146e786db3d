//===- ir/BlockBuilder.cpp - Emitting and normalizing bindings --------------===//
//
// Keeps a stack of open binding blocks and a stack of symbolic-var scopes.
// A function scope starts a fresh set of defined TirVars (its params' bare
// vars); an inner scope (an If branch) extends the enclosing set and undoes
// its additions on exit; match_cast adds the bare vars of its struct info.
// Every emit is O(1) amortized apart from the struct-info inference itself.
//
//===----------------------------------------------------------------------===//

#include "ir/BlockBuilder.h"

#include "ir/Diagnostics.h"
#include "ir/MapExprs.h"
#include "ir/Printer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace graft;

namespace {

struct BlockFrame {
  std::vector<Binding> bindings;
  bool isDataflow;
};

struct ScopeFrame {
  bool isFunction;
  /// Function scope: the enclosing function's set, restored on exit.
  llvm::DenseSet<const TirVarNode *> saved;
  /// Inner scope: the vars it added, removed on exit.
  llvm::SmallVector<const TirVarNode *, 4> added;
};

} // namespace

struct BlockBuilder::Impl {
  const IRModule *module;
  std::vector<BlockFrame> blocks;
  std::vector<ScopeFrame> scopes;
  llvm::DenseSet<const TirVarNode *> defined;
  llvm::StringMap<unsigned> nameCounters;

  explicit Impl(const IRModule *module) : module(module) {}

  void define(const TirVarNode *v) {
    if (defined.insert(v).second && !scopes.empty() && !scopes.back().isFunction)
      scopes.back().added.push_back(v);
  }

  void defineFromSInfo(const StructInfoNode *s) {
    llvm::SmallVector<const TirVarNode *, 8> vars;
    collectDefinableTirVars(s, vars);
    for (const TirVarNode *v : vars)
      define(v);
  }

  /// Struct info leaving the current scope: out-of-scope vars erased. With
  /// no scope open (a fragment built outside any function) it is kept.
  StructInfo eraseInScope(const StructInfoNode *s) const {
    if (scopes.empty() || !s)
      return s;
    return eraseToWellDefined(s, defined);
  }
};

BlockBuilder::BlockBuilder(const IRModule *module) : impl_(std::make_unique<Impl>(module)) {}
BlockBuilder::~BlockBuilder() = default;

//===----------------------------------------------------------------------===//
// Scopes and blocks
//===----------------------------------------------------------------------===//

void BlockBuilder::beginFunctionScope(llvm::ArrayRef<Var> params) {
  ScopeFrame frame;
  frame.isFunction = true;
  frame.saved = std::move(impl_->defined);
  impl_->defined.clear();
  impl_->scopes.push_back(std::move(frame));
  for (const Var &p : params)
    if (p)
      impl_->defineFromSInfo(p->sinfo.get());
}

void BlockBuilder::endFunctionScope() {
  if (impl_->scopes.empty())
    return;
  ScopeFrame &frame = impl_->scopes.back();
  if (frame.isFunction)
    impl_->defined = std::move(frame.saved);
  else
    for (const TirVarNode *v : frame.added)
      impl_->defined.erase(v);
  impl_->scopes.pop_back();
}

void BlockBuilder::beginInnerScope() {
  ScopeFrame frame;
  frame.isFunction = false;
  impl_->scopes.push_back(std::move(frame));
}

void BlockBuilder::endInnerScope() { endFunctionScope(); }

void BlockBuilder::beginBlock(bool isDataflow) {
  impl_->blocks.push_back(BlockFrame{{}, isDataflow});
}

BindingBlock BlockBuilder::endBlock() {
  if (impl_->blocks.empty())
    return make<BindingBlockNode>(std::vector<Binding>{}, false);
  BlockFrame frame = std::move(impl_->blocks.back());
  impl_->blocks.pop_back();
  return make<BindingBlockNode>(std::move(frame.bindings), frame.isDataflow);
}

void BlockBuilder::reserveBindings(size_t n) {
  if (!impl_->blocks.empty()) {
    // Never less than doubling: blocks rewritten one after another into one
    // open block must not reallocate it each time.
    std::vector<Binding> &bindings = impl_->blocks.back().bindings;
    if (bindings.capacity() < bindings.size() + n)
      bindings.reserve(std::max(bindings.size() + n, 2 * bindings.capacity()));
  }
}

bool BlockBuilder::inDataflowBlock() const {
  return !impl_->blocks.empty() && impl_->blocks.back().isDataflow;
}

const llvm::DenseSet<const TirVarNode *> &BlockBuilder::definedTirVars() const {
  return impl_->defined;
}

std::string BlockBuilder::freshName(llvm::StringRef hint) {
  if (hint.empty())
    hint = inDataflowBlock() ? "lv" : "gv";
  unsigned &count = impl_->nameCounters[hint];
  std::string name = hint.str();
  if (count > 0)
    name += std::to_string(count);
  ++count;
  return name;
}

//===----------------------------------------------------------------------===//
// Emitting
//===----------------------------------------------------------------------===//

llvm::Error BlockBuilder::emitBinding(Binding binding) {
  if (impl_->blocks.empty())
    return diagError(binding->loc, "internal error: a binding was emitted with no open block");
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding.get()))
    impl_->defineFromSInfo(mc->castSInfo.get());
  impl_->blocks.back().bindings.push_back(std::move(binding));
  return llvm::Error::success();
}

llvm::Expected<Var> BlockBuilder::emit(Expr value, llvm::StringRef nameHint, llvm::SMLoc loc) {
  if (impl_->blocks.empty())
    return diagError(loc, "internal error: a value was emitted with no open block");
  llvm::Expected<Expr> normalized = normalize(std::move(value));
  if (!normalized)
    return normalized.takeError();
  std::string name = nameHint.empty() ? freshName("") : nameHint.str();
  StructInfo sinfo = (*normalized)->sinfo;
  Var var = inDataflowBlock() ? Var(make<DataflowVarNode>(std::move(name), sinfo, loc))
                              : make<VarNode>(std::move(name), sinfo, loc);
  impl_->blocks.back().bindings.push_back(make<VarBindingNode>(var, std::move(*normalized), loc));
  return var;
}

llvm::Expected<Var> BlockBuilder::emitMatchCast(Expr value, StructInfo sinfo,
                                                llvm::StringRef nameHint, llvm::SMLoc loc) {
  if (impl_->blocks.empty())
    return diagError(loc, "internal error: a match_cast was emitted with no open block");
  llvm::Expected<Expr> normalized = normalize(std::move(value));
  if (!normalized)
    return normalized.takeError();
  const StructInfoNode *valueSInfo = (*normalized)->sinfo.get();
  if (valueSInfo && structInfoBaseCheck(valueSInfo, sinfo.get()) == BaseCheck::FailL0)
    return diagError(loc, "It is impossible to match cast any value into the target "
                          "struct_info. But got value struct info: " +
                              printStructInfo(valueSInfo) +
                              ", given struct info: " + printStructInfo(sinfo.get()));
  std::string name = nameHint.empty() ? freshName("") : nameHint.str();
  Var var = inDataflowBlock() ? Var(make<DataflowVarNode>(std::move(name), sinfo, loc))
                              : make<VarNode>(std::move(name), sinfo, loc);
  impl_->defineFromSInfo(sinfo.get());
  impl_->blocks.back().bindings.push_back(
      make<MatchCastNode>(var, std::move(*normalized), std::move(sinfo), loc));
  return var;
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

llvm::Expected<Expr> BlockBuilder::normalizeArgument(Expr e) {
  llvm::Expected<Expr> n = normalize(std::move(e));
  if (!n)
    return n.takeError();
  if (isLeafOrTuple(n->get()))
    return n;
  llvm::SMLoc loc = (*n)->loc;
  llvm::Expected<Var> var = emit(std::move(*n), "", loc);
  if (!var)
    return var.takeError();
  return Expr(std::move(*var));
}

namespace {

/// Sets the struct info of a node nobody else holds yet; otherwise the
/// caller must build a copy. Returns false when the node is shared.
bool setSInfoIfPrivate(const Expr &e, StructInfo sinfo) {
  if (e->refCount() != 1)
    return false;
  const_cast<ExprNode *>(e.get())->sinfo = std::move(sinfo);
  return true;
}

} // namespace

llvm::Expected<Expr> BlockBuilder::normalize(Expr e) {
  if (!e)
    return diagError(llvm::SMLoc(), "internal error: normalizing a null expression");
  switch (e->getKind()) {
  case NodeKind::Tuple: {
    const auto *t = llvm::cast<TupleNode>(e.get());
    std::vector<Expr> fields;
    llvm::Expected<bool> changed =
        mapExprs(t->fields, fields, [&](const Expr &f) { return normalizeArgument(f); });
    if (!changed)
      return changed.takeError();
    if (!*changed && e->sinfo)
      return e;
    return Expr(makeAt<TupleNode>(e->loc, std::move(fields)));
  }
  case NodeKind::TupleGetItem: {
    const auto *t = llvm::cast<TupleGetItemNode>(e.get());
    llvm::Expected<Expr> tuple = normalizeArgument(t->tuple);
    if (!tuple)
      return tuple.takeError();
    if (tuple->get() == t->tuple.get() && e->sinfo)
      return e;
    const auto *ts = llvm::dyn_cast_or_null<TupleSInfoNode>((*tuple)->sinfo.get());
    if (!ts)
      return diagError(e->loc, "TupleGetItem requires its input to have tuple struct info");
    if (t->index < 0 || static_cast<size_t>(t->index) >= ts->fields.size())
      return diagError(e->loc, "Index out of bounds: tuple has " + llvm::Twine(ts->fields.size()) +
                                   " fields, index is " + llvm::Twine(t->index));
    return Expr(makeAt<TupleGetItemNode>(e->loc, std::move(*tuple), t->index));
  }
  case NodeKind::Call:
    return normalizeCall(e);
  case NodeKind::If:
    return normalizeIf(e);
  case NodeKind::SeqExpr: {
    if (e->sinfo)
      return e;
    const auto *seq = llvm::cast<SeqExprNode>(e.get());
    llvm::Expected<SeqExpr> out = finalizeSeqExpr(seq->blocks, seq->body);
    if (!out)
      return out.takeError();
    return Expr(std::move(*out));
  }
  default:
    // Leaves, functions, globals, ops, extern funcs: already normal.
    return e;
  }
}

llvm::Expected<Expr> BlockBuilder::normalizeCall(const Expr &e) {
  const auto *call = llvm::cast<CallNode>(e.get());
  Expr op = call->op;
  if (op && !isLeafOrTuple(op.get())) {
    llvm::Expected<Expr> nop = normalizeArgument(op);
    if (!nop)
      return nop.takeError();
    op = std::move(*nop);
  }
  std::vector<Expr> args;
  llvm::Expected<bool> argsChanged =
      mapExprs(call->args, args, [&](const Expr &a) { return normalizeArgument(a); });
  if (!argsChanged)
    return argsChanged.takeError();
  bool changed = *argsChanged || op.get() != call->op.get();
  if (!changed && call->sinfo)
    return e;
  Expr out = e;
  if (changed)
    out = makeAt<CallNode>(call->loc, std::move(op), std::move(args), call->attrs, call->sinfoArgs,
                           call->sinfo);
  if (out->sinfo)
    return out;
  InferContext ctx;
  ctx.module = impl_->module;
  llvm::Expected<StructInfo> sinfo = inferCallSInfo(*llvm::cast<CallNode>(out.get()), ctx);
  if (!sinfo)
    return sinfo.takeError();
  if (!setSInfoIfPrivate(out, *sinfo)) {
    const auto *c = llvm::cast<CallNode>(out.get());
    out = makeAt<CallNode>(c->loc, c->op, c->args, c->attrs, c->sinfoArgs, *sinfo);
  }
  // TVM's FNormalize, after inference: an op may stand for a simpler form
  // (R.inspect.* whose value the struct info knows is that R.prim_value).
  const auto *c = llvm::cast<CallNode>(out.get());
  if (const OpInfo *info = c->opInfo(); info && info->normalize) {
    Expr simpler = info->normalize(*c);
    if (simpler.get() != out.get())
      return normalize(withLoc(std::move(simpler), c->loc));
  }
  return out;
}

llvm::Expected<Expr> BlockBuilder::normalizeIf(const Expr &e) {
  const auto *ifNode = llvm::cast<IfNode>(e.get());
  llvm::Expected<Expr> cond = normalizeArgument(ifNode->cond);
  if (!cond)
    return cond.takeError();
  auto branch = [&](const SeqExpr &b) -> llvm::Expected<SeqExpr> {
    if (b->sinfo)
      return b;
    InnerScope scope(*this);
    return finalizeSeqExpr(b->blocks, b->body);
  };
  llvm::Expected<SeqExpr> thenB = branch(ifNode->thenBranch);
  if (!thenB)
    return thenB.takeError();
  llvm::Expected<SeqExpr> elseB = branch(ifNode->elseBranch);
  if (!elseB)
    return elseB.takeError();
  bool changed = cond->get() != ifNode->cond.get() || thenB->get() != ifNode->thenBranch.get() ||
                 elseB->get() != ifNode->elseBranch.get();
  if (!changed && e->sinfo)
    return e;
  StructInfo sinfo = e->sinfo;
  if (!sinfo) {
    StructInfo t = impl_->eraseInScope((*thenB)->sinfo.get());
    StructInfo f = impl_->eraseInScope((*elseB)->sinfo.get());
    sinfo = structInfoLCA(t.get(), f.get());
  }
  return Expr(makeAt<IfNode>(e->loc, std::move(*cond), std::move(*thenB), std::move(*elseB),
                             std::move(sinfo)));
}

llvm::Expected<SeqExpr> BlockBuilder::finalizeSeqExpr(std::vector<BindingBlock> blocks, Expr body) {
  if (!body)
    return diagError(llvm::SMLoc(), "internal error: a SeqExpr without a body");
  // A non-leaf body goes into a trailing non-dataflow block.
  BlockScope trailingScope(*this, /*isDataflow=*/false);
  llvm::Expected<Expr> nbody = normalizeArgument(std::move(body));
  BindingBlock trailing = trailingScope.finish();
  if (!nbody)
    return nbody.takeError();
  if (!trailing->bindings.empty())
    blocks.push_back(std::move(trailing));
  blocks = mergeBlocks(std::move(blocks));
  StructInfo sinfo = impl_->eraseInScope((*nbody)->sinfo.get());
  return make<SeqExprNode>(std::move(blocks), std::move(*nbody), std::move(sinfo));
}

//===----------------------------------------------------------------------===//
// Static helpers
//===----------------------------------------------------------------------===//

StructInfo BlockBuilder::functionRetSInfo(const StructInfoNode *annotation,
                                          const StructInfoNode *bodySInfo,
                                          llvm::ArrayRef<Var> params) {
  llvm::DenseSet<const TirVarNode *> defined;
  llvm::SmallVector<const TirVarNode *, 8> vars;
  for (const Var &p : params)
    if (p)
      collectDefinableTirVars(p->sinfo.get(), vars);
  defined.insert(vars.begin(), vars.end());
  StructInfo body = bodySInfo ? eraseToWellDefined(bodySInfo, defined) : StructInfo();
  if (!annotation)
    return body ? body : objectSInfo();
  if (body && isBaseOf(annotation, body.get()))
    return body;
  return annotation;
}

std::vector<BindingBlock> BlockBuilder::mergeBlocks(std::vector<BindingBlock> blocks) {
  std::vector<BindingBlock> out;
  out.reserve(blocks.size());
  // A run of non-empty same-kind blocks becomes one block; a run of one
  // keeps its node.
  llvm::SmallVector<const BindingBlockNode *, 4> run;
  auto flush = [&] {
    if (run.size() == 1) {
      out.push_back(run[0]);
    } else if (run.size() > 1) {
      size_t total = 0;
      for (const BindingBlockNode *b : run)
        total += b->bindings.size();
      std::vector<Binding> bindings;
      bindings.reserve(total);
      for (const BindingBlockNode *b : run)
        bindings.insert(bindings.end(), b->bindings.begin(), b->bindings.end());
      out.push_back(make<BindingBlockNode>(std::move(bindings), run[0]->isDataflow, run[0]->loc));
    }
    run.clear();
  };
  for (const BindingBlock &b : blocks) {
    if (!b || b->bindings.empty())
      continue;
    if (!run.empty() && run[0]->isDataflow != b->isDataflow)
      flush();
    run.push_back(b.get());
  }
  flush();
  return out;
}
