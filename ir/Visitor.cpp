//===- ir/Visitor.cpp - Walking and rewriting Relax IR ----------------------===//
//
// Bindings are walked in loops; recursion happens only into nested
// expressions. Every var definition goes through visitVarDef.
//
//===----------------------------------------------------------------------===//

#include "ir/Visitor.h"

#include "ir/Diagnostics.h"
#include "ir/MapExprs.h"
#include "ir/StructInfoAnalysis.h"

#include "llvm/Support/ErrorHandling.h"

using namespace graft;

//===----------------------------------------------------------------------===//
// ExprVisitor
//===----------------------------------------------------------------------===//

void ExprVisitor::visitModule(const IRModule &module) {
  for (const ModuleEntry &entry : module.entries())
    if (const FunctionNode *fn = entry.asFunction())
      visitExpr(fn);
}

void ExprVisitor::visitExpr(const ExprNode *e) {
  if (!e)
    return;
  switch (e->getKind()) {
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite)                                               \
  case NodeKind::Kind:                                                                             \
    return Visit(llvm::cast<Class>(e));
#include "ir/NodeKinds.def"
    // The other kinds are no expressions: a corrupt node.
#define GRAFT_NODE(Kind, Class) case NodeKind::Kind:
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite)
#include "ir/NodeKinds.def"
    break;
  }
  reportCorruptNode("ExprVisitor::visitExpr: not an expression node");
}

void ExprVisitor::visitShapeExpr(const ShapeExprNode *s) {
  if (wantsStructInfo())
    for (const PrimExpr &v : s->values)
      visitPrimExpr(v.get(), /*isDefinitionSite=*/false);
}

void ExprVisitor::visitPrimValue(const PrimValueNode *p) {
  if (wantsStructInfo())
    visitPrimExpr(p->value.get(), /*isDefinitionSite=*/false);
}

void ExprVisitor::visitTuple(const TupleNode *t) {
  for (const Expr &f : t->fields)
    visitExpr(f.get());
}

void ExprVisitor::visitTupleGetItem(const TupleGetItemNode *t) { visitExpr(t->tuple.get()); }

void ExprVisitor::visitCall(const CallNode *call) {
  visitExpr(call->op.get());
  for (const Expr &a : call->args)
    visitExpr(a.get());
  if (wantsStructInfo())
    for (const StructInfo &s : call->sinfoArgs)
      visitStructInfo(s.get(), /*isDefinitionSite=*/false);
}

void ExprVisitor::visitIf(const IfNode *ifNode) {
  visitExpr(ifNode->cond.get());
  visitExpr(ifNode->thenBranch.get());
  visitExpr(ifNode->elseBranch.get());
}

void ExprVisitor::visitSeqExpr(const SeqExprNode *seq) {
  for (const BindingBlock &block : seq->blocks)
    visitBlock(block.get());
  visitExpr(seq->body.get());
}

void ExprVisitor::visitFunction(const FunctionNode *fn) {
  for (const Var &p : fn->params) {
    if (wantsStructInfo())
      visitStructInfo(p->sinfo.get(), /*isDefinitionSite=*/true);
    visitVarDef(p.get(), nullptr);
  }
  visitExpr(fn->body.get());
  if (wantsStructInfo())
    visitStructInfo(fn->retSInfo.get(), /*isDefinitionSite=*/false);
}

namespace {

/// Starts loading what the walk meets a few bindings after binding `i`: the
/// binding 8 ahead, and the var and value of the one 4 ahead (whose node has
/// arrived by then). The nodes of a 200k-binding block span tens of
/// megabytes, beyond the caches; use-def's walk, which does little per
/// node, spent most of its time waiting on these loads (docs/performance.md).
void prefetchBindings(const std::vector<Binding> &bindings, size_t i) {
  if (i + 8 < bindings.size())
    __builtin_prefetch(bindings[i + 8].get());
  if (i + 4 < bindings.size())
    if (const BindingNode *b = bindings[i + 4].get()) {
      __builtin_prefetch(b->var.get());
      __builtin_prefetch(b->value.get());
    }
}

} // namespace

void ExprVisitor::visitBlock(const BindingBlockNode *block) {
  for (size_t i = 0; i < block->bindings.size(); ++i) {
    prefetchBindings(block->bindings, i);
    visitBinding(block->bindings[i].get());
  }
}

void ExprVisitor::visitBinding(const BindingNode *binding) {
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding))
    visitMatchCast(mc);
  else
    visitVarBinding(llvm::cast<VarBindingNode>(binding));
}

void ExprVisitor::visitVarBinding(const VarBindingNode *binding) {
  // A local function may call itself: its var is defined before its body.
  bool defineFirst = binding->value && llvm::isa<FunctionNode>(binding->value.get());
  if (defineFirst)
    visitVarDef(binding->var.get(), binding);
  visitExpr(binding->value.get());
  if (wantsStructInfo())
    visitStructInfo(binding->var->sinfo.get(), /*isDefinitionSite=*/false);
  if (!defineFirst)
    visitVarDef(binding->var.get(), binding);
}

void ExprVisitor::visitMatchCast(const MatchCastNode *binding) {
  visitExpr(binding->value.get());
  if (wantsStructInfo())
    visitStructInfo(binding->castSInfo.get(), /*isDefinitionSite=*/true);
  visitVarDef(binding->var.get(), binding);
}

void ExprVisitor::visitStructInfo(const StructInfoNode *s, bool isDefinitionSite) {
  if (!s)
    return;
  switch (s->getKind()) {
  case NodeKind::PrimSInfo:
    if (const PrimExpr &v = llvm::cast<PrimSInfoNode>(s)->value)
      visitPrimExpr(v.get(), isDefinitionSite);
    return;
  case NodeKind::ShapeSInfo:
    if (const auto &vals = llvm::cast<ShapeSInfoNode>(s)->values)
      for (const PrimExpr &v : *vals)
        visitPrimExpr(v.get(), isDefinitionSite);
    return;
  case NodeKind::TensorSInfo: {
    const auto *t = llvm::cast<TensorSInfoNode>(s);
    if (const auto *vals = t->shapeValues())
      for (const PrimExpr &v : *vals)
        visitPrimExpr(v.get(), isDefinitionSite);
    else if (const auto *var = llvm::dyn_cast_or_null<VarNode>(t->shape.get()))
      visitVarUse(var);
    return;
  }
  case NodeKind::TupleSInfo:
    for (const StructInfo &f : llvm::cast<TupleSInfoNode>(s)->fields)
      visitStructInfo(f.get(), isDefinitionSite);
    return;
  case NodeKind::FuncSInfo: {
    // A callable's params define vars of their own scope: never a
    // definition site of the enclosing function.
    const auto *f = llvm::cast<FuncSInfoNode>(s);
    if (f->params)
      for (const StructInfo &p : *f->params)
        visitStructInfo(p.get(), /*isDefinitionSite=*/false);
    visitStructInfo(f->ret.get(), /*isDefinitionSite=*/false);
    return;
  }
  case NodeKind::DTensorSInfo:
    visitStructInfo(llvm::cast<DTensorSInfoNode>(s)->tensor.get(), isDefinitionSite);
    return;
  case NodeKind::ObjectSInfo:
    return;
#define GRAFT_NODE(Kind, Class) case NodeKind::Kind:
#define GRAFT_SINFO_NODE(Kind, Class)
#include "ir/NodeKinds.def"
    break;
  }
  reportCorruptNode("ExprVisitor::visitStructInfo: not a struct info node");
}

//===----------------------------------------------------------------------===//
// ExprMutator
//===----------------------------------------------------------------------===//

ExprMutator::ExprMutator(const IRModule *module) : builder_(module) {}
ExprMutator::~ExprMutator() = default;

Expr ExprMutator::lookupVar(const VarNode *var) const {
  auto it = varRemap_.find(var);
  return it == varRemap_.end() ? Expr(var) : it->second;
}

void ExprMutator::remapVar(const VarNode *from, Expr to) { varRemap_[from] = std::move(to); }

void ExprMutator::remapTirVar(const TirVarNode *from, PrimExpr to) {
  tirVarRemap_[from] = std::move(to);
}

namespace {

/// A var of the same name, kind and location as `var` with struct info `sinfo`.
Var freshVarLike(const VarNode *var, StructInfo sinfo) {
  if (var->isDataflow())
    return make<DataflowVarNode>(var->name, std::move(sinfo), var->loc);
  return make<VarNode>(var->name, std::move(sinfo), var->loc);
}

/// A function like `fn` (same attrs and flags) with the given parts; the
/// return struct info follows the Function constructor rule.
Function rebuildFunction(const FunctionNode *fn, std::vector<Var> params, SeqExpr body,
                         const StructInfoNode *retAnnotation) {
  StructInfo ret = BlockBuilder::functionRetSInfo(retAnnotation, body->sinfo.get(), params);
  return make<FunctionNode>(std::move(params), std::move(body), std::move(ret), fn->isPure,
                            fn->attrs, fn->loc, fn->checkWellFormed);
}

} // namespace

llvm::Expected<Function> ExprMutator::rewriteFunction(const Function &fn) {
  llvm::Expected<Expr> out = rewriteFunctionExpr(fn.get());
  if (!out)
    return out.takeError();
  if (const auto *f = llvm::dyn_cast<FunctionNode>(out->get()))
    return Function(f);
  return diagError(fn->loc, "internal error: a function was rewritten to a non-function");
}

llvm::Expected<Expr> ExprMutator::rewriteFunctionExpr(const FunctionNode *fn) {
  std::vector<Var> params;
  params.reserve(fn->params.size());
  bool paramsChanged = false;
  for (const Var &p : fn->params) {
    params.push_back(rewriteVarDef(p));
    paramsChanged |= params.back().get() != p.get();
  }
  llvm::Expected<Expr> body = [&] {
    BlockBuilder::FunctionScope scope(builder_, params);
    return rewriteSeqExpr(fn->body.get());
  }();
  if (!body)
    return body.takeError();
  StructInfo ret = rewriteStructInfo(fn->retSInfo);
  if (!paramsChanged && body->get() == fn->body.get() && ret.get() == fn->retSInfo.get())
    return Expr(fn);
  const auto *seq = llvm::dyn_cast<SeqExprNode>(body->get());
  if (!seq)
    return diagError(fn->loc, "internal error: a function body was rewritten to a non-SeqExpr");
  return Expr(rebuildFunction(fn, std::move(params), SeqExpr(seq), ret.get()));
}

llvm::Expected<Expr> ExprMutator::rewriteExpr(const Expr &e) {
  if (!e)
    return e;
  switch (e->getKind()) {
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite)                                               \
  case NodeKind::Kind:                                                                             \
    return Rewrite(llvm::cast<Class>(e.get()));
#include "ir/NodeKinds.def"
    // The other kinds are no expressions: a corrupt node.
#define GRAFT_NODE(Kind, Class) case NodeKind::Kind:
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite)
#include "ir/NodeKinds.def"
    break;
  }
  reportCorruptNode("ExprMutator::rewriteExpr: not an expression node");
}

llvm::Expected<Expr> ExprMutator::rewriteShapeExpr(const ShapeExprNode *s) {
  std::vector<PrimExpr> values;
  values.reserve(s->values.size());
  bool changed = false;
  for (const PrimExpr &v : s->values) {
    values.push_back(rewritePrimExpr(v));
    changed |= values.back().get() != v.get();
  }
  if (!changed)
    return Expr(s);
  return Expr(makeAt<ShapeExprNode>(s->loc, std::move(values)));
}

llvm::Expected<Expr> ExprMutator::rewritePrimValue(const PrimValueNode *p) {
  PrimExpr value = rewritePrimExpr(p->value);
  if (value.get() == p->value.get())
    return Expr(p);
  return Expr(makeAt<PrimValueNode>(p->loc, std::move(value)));
}

llvm::Expected<Expr> ExprMutator::rewriteTuple(const TupleNode *t) {
  std::vector<Expr> fields;
  llvm::Expected<bool> changed =
      mapExprs(t->fields, fields, [&](const Expr &f) { return rewriteExpr(f); });
  if (!changed)
    return changed.takeError();
  if (!*changed)
    return Expr(t);
  return builder_.normalize(makeAt<TupleNode>(t->loc, std::move(fields)));
}

llvm::Expected<Expr> ExprMutator::rewriteTupleGetItem(const TupleGetItemNode *t) {
  llvm::Expected<Expr> tuple = rewriteExpr(t->tuple);
  if (!tuple)
    return tuple.takeError();
  if (tuple->get() == t->tuple.get())
    return Expr(t);
  return builder_.normalize(makeAt<TupleGetItemNode>(t->loc, std::move(*tuple), t->index));
}

llvm::Expected<Expr> ExprMutator::rewriteCall(const CallNode *call) {
  llvm::Expected<Expr> op = rewriteExpr(call->op);
  if (!op)
    return op.takeError();
  // The arguments are copied only once one changes: most calls of a large
  // function come back as themselves, and a vector per call was a malloc
  // and a second reference to every argument (a write to its node).
  std::vector<Expr> args;
  bool argsChanged = false;
  for (size_t i = 0; i < call->args.size(); ++i) {
    llvm::Expected<Expr> arg = rewriteExpr(call->args[i]);
    if (!arg)
      return arg.takeError();
    if (!argsChanged && arg->get() == call->args[i].get())
      continue;
    if (!argsChanged) {
      args.reserve(call->args.size());
      args.assign(call->args.begin(), call->args.begin() + i);
      argsChanged = true;
    }
    args.push_back(std::move(*arg));
  }
  std::vector<StructInfo> sinfoArgs;
  sinfoArgs.reserve(call->sinfoArgs.size());
  bool sinfoArgsChanged = false;
  for (const StructInfo &s : call->sinfoArgs) {
    sinfoArgs.push_back(rewriteStructInfo(s));
    sinfoArgsChanged |= sinfoArgs.back().get() != s.get();
  }
  if (!argsChanged && !sinfoArgsChanged && op->get() == call->op.get())
    return Expr(call);
  if (!argsChanged)
    args.assign(call->args.begin(), call->args.end());
  llvm::Expected<Expr> out =
      builder_.normalize(makeAt<CallNode>(call->loc, *op, args, call->attrs, sinfoArgs));
  if (out || !call->sinfo)
    return out;
  // Inference cannot run (an unknown op keeps its annotated struct info):
  // the call keeps the struct info it had.
  llvm::consumeError(out.takeError());
  return builder_.normalize(makeAt<CallNode>(call->loc, std::move(*op), std::move(args),
                                             call->attrs, std::move(sinfoArgs),
                                             rewriteStructInfo(call->sinfo)));
}

llvm::Expected<Expr> ExprMutator::rewriteIf(const IfNode *ifNode) {
  llvm::Expected<Expr> cond = rewriteExpr(ifNode->cond);
  if (!cond)
    return cond.takeError();
  auto branch = [&](const SeqExpr &b) -> llvm::Expected<Expr> {
    BlockBuilder::InnerScope scope(builder_);
    return rewriteSeqExpr(b.get());
  };
  llvm::Expected<Expr> thenB = branch(ifNode->thenBranch);
  if (!thenB)
    return thenB.takeError();
  llvm::Expected<Expr> elseB = branch(ifNode->elseBranch);
  if (!elseB)
    return elseB.takeError();
  if (cond->get() == ifNode->cond.get() && thenB->get() == ifNode->thenBranch.get() &&
      elseB->get() == ifNode->elseBranch.get())
    return Expr(ifNode);
  const auto *t = llvm::dyn_cast<SeqExprNode>(thenB->get());
  const auto *f = llvm::dyn_cast<SeqExprNode>(elseB->get());
  if (!t || !f)
    return diagError(ifNode->loc, "internal error: an If branch was rewritten to a non-SeqExpr");
  return builder_.normalize(makeAt<IfNode>(ifNode->loc, std::move(*cond), SeqExpr(t), SeqExpr(f)));
}

llvm::Expected<Expr> ExprMutator::rewriteSeqExpr(const SeqExprNode *seq) {
  std::vector<BindingBlock> blocks;
  blocks.reserve(seq->blocks.size() + 1);
  bool changed = false;
  for (const BindingBlock &block : seq->blocks) {
    BlockBuilder::BlockScope scope(builder_, block->isDataflow);
    if (llvm::Error err = rewriteBlock(block.get()))
      return err;
    BindingBlock out = finishBlock(block.get(), scope.finish());
    bool same = out->bindings.size() == block->bindings.size();
    for (size_t i = 0; same && i < out->bindings.size(); ++i)
      same = out->bindings[i].get() == block->bindings[i].get();
    changed |= !same;
    blocks.push_back(same ? block : out);
  }
  BlockBuilder::BlockScope trailingScope(builder_, /*isDataflow=*/false);
  llvm::Expected<Expr> body = rewriteExpr(seq->body);
  BindingBlock trailing = trailingScope.finish();
  if (!body)
    return body.takeError();
  if (!trailing->bindings.empty()) {
    blocks.push_back(std::move(trailing));
    changed = true;
  }
  if (!changed && body->get() == seq->body.get())
    return Expr(seq);
  llvm::Expected<SeqExpr> out = builder_.finalizeSeqExpr(std::move(blocks), std::move(*body));
  if (!out)
    return out.takeError();
  return Expr(std::move(*out));
}

llvm::Error ExprMutator::rewriteBlock(const BindingBlockNode *block) {
  builder_.reserveBindings(block->bindings.size());
  for (size_t i = 0; i < block->bindings.size(); ++i) {
    prefetchBindings(block->bindings, i);
    if (llvm::Error err = rewriteBinding(block->bindings[i].get()))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error ExprMutator::rewriteBinding(const BindingNode *binding) {
  llvm::Expected<Expr> value = rewriteExpr(binding->value);
  if (!value)
    return value.takeError();
  bool sameValue = value->get() == binding->value.get();
  const VarNode *var = binding->var.get();
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding)) {
    StructInfo cast = rewriteStructInfo(mc->castSInfo);
    Var newVar = binding->var;
    if (cast.get() != mc->castSInfo.get()) {
      newVar = freshVarLike(var, cast);
      remapVar(var, newVar);
    } else {
      newVar = rewriteVarDef(binding->var);
    }
    if (sameValue && newVar.get() == var && cast.get() == mc->castSInfo.get())
      return builder_.emitBinding(binding);
    return builder_.emitBinding(
        make<MatchCastNode>(std::move(newVar), std::move(*value), std::move(cast), mc->loc));
  }
  // The var keeps its identity while its struct info still describes the
  // new value; otherwise a fresh var of the same name and kind replaces it.
  const StructInfoNode *newSInfo = (*value)->sinfo.get();
  Var newVar = binding->var;
  if (sameValue || !newSInfo) {
    newVar = rewriteVarDef(binding->var);
    if (sameValue && newVar.get() == var)
      return builder_.emitBinding(binding);
  } else if (!structInfoIdentical(var->sinfo.get(), newSInfo)) {
    newVar = freshVarLike(var, StructInfo(newSInfo));
    remapVar(var, newVar);
  }
  return builder_.emitBinding(
      make<VarBindingNode>(std::move(newVar), std::move(*value), binding->loc));
}

Var ExprMutator::rewriteVarDef(const Var &var) {
  if (!var)
    return var;
  StructInfo sinfo = rewriteStructInfo(var->sinfo);
  if (sinfo.get() == var->sinfo.get())
    return var;
  Var fresh = freshVarLike(var.get(), std::move(sinfo));
  remapVar(var.get(), fresh);
  return fresh;
}

//===----------------------------------------------------------------------===//
// Struct info and PrimExprs
//===----------------------------------------------------------------------===//

PrimExpr ExprMutator::rewritePrimExpr(const PrimExpr &e) { return substitutePrim(e, tirVarRemap_); }

namespace {

/// Maps `in` through `fn`; whether some element became another node.
template <typename T, typename Fn>
bool mapNodes(const std::vector<T> &in, std::vector<T> &out, Fn fn) {
  out.reserve(in.size());
  bool changed = false;
  for (const T &x : in) {
    out.push_back(fn(x));
    changed |= out.back().get() != x.get();
  }
  return changed;
}

} // namespace

StructInfo ExprMutator::rewriteStructInfo(const StructInfo &s) {
  if (!s)
    return s;
  auto prim = [&](const PrimExpr &e) { return rewritePrimExpr(e); };
  auto sinfo = [&](const StructInfo &x) { return rewriteStructInfo(x); };
  switch (s->getKind()) {
  case NodeKind::ObjectSInfo:
    return s;
  case NodeKind::PrimSInfo: {
    const auto *p = llvm::cast<PrimSInfoNode>(s.get());
    if (!p->value)
      return s;
    PrimExpr value = rewritePrimExpr(p->value);
    return value.get() == p->value.get() ? s : make<PrimSInfoNode>(p->dtype, std::move(value));
  }
  case NodeKind::ShapeSInfo: {
    const auto *sh = llvm::cast<ShapeSInfoNode>(s.get());
    std::vector<PrimExpr> values;
    if (!sh->values || !mapNodes(*sh->values, values, prim))
      return s;
    return make<ShapeSInfoNode>(std::move(values));
  }
  case NodeKind::TensorSInfo: {
    const auto *t = llvm::cast<TensorSInfoNode>(s.get());
    Expr shape = t->shape;
    if (const std::vector<PrimExpr> *dims = t->shapeValues()) {
      std::vector<PrimExpr> values;
      if (mapNodes(*dims, values, prim))
        shape = shapeExpr(std::move(values));
    } else if (const auto *var = llvm::dyn_cast_or_null<VarNode>(t->shape.get())) {
      shape = lookupVar(var);
      // A shape is a ShapeExpr or a Shape-typed var; anything else the var
      // became is described by its shape values, or not at all.
      if (!llvm::isa<VarNode, ShapeExprNode>(shape.get())) {
        const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(shape->sinfo.get());
        shape = ss && ss->values ? shapeExpr(*ss->values) : Expr();
      }
    }
    if (shape.get() == t->shape.get())
      return s;
    return make<TensorSInfoNode>(std::move(shape), t->dtype, t->ndim, t->vdevice);
  }
  case NodeKind::TupleSInfo: {
    const auto *tu = llvm::cast<TupleSInfoNode>(s.get());
    std::vector<StructInfo> fields;
    if (!mapNodes(tu->fields, fields, sinfo))
      return s;
    return make<TupleSInfoNode>(std::move(fields));
  }
  case NodeKind::FuncSInfo: {
    const auto *f = llvm::cast<FuncSInfoNode>(s.get());
    llvm::Optional<std::vector<StructInfo>> params;
    bool changed = false;
    if (f->params) {
      params.emplace();
      changed = mapNodes(*f->params, *params, sinfo);
    }
    StructInfo ret = rewriteStructInfo(f->ret);
    if (!changed && ret.get() == f->ret.get())
      return s;
    return make<FuncSInfoNode>(std::move(params), std::move(ret), f->purity, f->deriveFunc);
  }
  case NodeKind::DTensorSInfo: {
    const auto *d = llvm::cast<DTensorSInfoNode>(s.get());
    return withDTensorView(d, rewriteStructInfo(StructInfo(d->tensor.get())));
  }
#define GRAFT_NODE(Kind, Class) case NodeKind::Kind:
#define GRAFT_SINFO_NODE(Kind, Class)
#include "ir/NodeKinds.def"
  break;
  }
  reportCorruptNode("ExprMutator::rewriteStructInfo: not a struct info node");
}
