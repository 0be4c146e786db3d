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
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    return visitVarUse(llvm::cast<VarNode>(e));
  case NodeKind::Constant:
    return visitConstant(llvm::cast<ConstantNode>(e));
  case NodeKind::ShapeExpr:
    return visitShapeExpr(llvm::cast<ShapeExprNode>(e));
  case NodeKind::PrimValue:
    return visitPrimValue(llvm::cast<PrimValueNode>(e));
  case NodeKind::StringImm:
    return visitStringImm(llvm::cast<StringImmNode>(e));
  case NodeKind::DataTypeImm:
    return visitDataTypeImm(llvm::cast<DataTypeImmNode>(e));
  case NodeKind::Tuple:
    return visitTuple(llvm::cast<TupleNode>(e));
  case NodeKind::TupleGetItem:
    return visitTupleGetItem(llvm::cast<TupleGetItemNode>(e));
  case NodeKind::Call:
    return visitCall(llvm::cast<CallNode>(e));
  case NodeKind::If:
    return visitIf(llvm::cast<IfNode>(e));
  case NodeKind::SeqExpr:
    return visitSeqExpr(llvm::cast<SeqExprNode>(e));
  case NodeKind::Function:
    return visitFunction(llvm::cast<FunctionNode>(e));
  case NodeKind::ExternFunc:
    return visitExternFunc(llvm::cast<ExternFuncNode>(e));
  case NodeKind::GlobalVar:
    return visitGlobalVar(llvm::cast<GlobalVarNode>(e));
  case NodeKind::Op:
    return visitOp(llvm::cast<OpNode>(e));
  default:
    return;
  }
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

void ExprVisitor::visitBlock(const BindingBlockNode *block) {
  for (const Binding &b : block->bindings)
    visitBinding(b.get());
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
  default:
    return;
  }
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

namespace {

/// A function with `body` in place of fn's body (same params and attrs); the
/// return struct info follows the Function constructor rule.
Function rebuildFunction(const FunctionNode *fn, SeqExpr body) {
  StructInfo ret =
      BlockBuilder::functionRetSInfo(fn->retSInfo.get(), body->sinfo.get(), fn->params);
  Function out = make<FunctionNode>(fn->params, std::move(body), std::move(ret), fn->isPure,
                                    fn->attrs, fn->loc);
  const_cast<FunctionNode *>(out.get())->checkWellFormed = fn->checkWellFormed;
  return out;
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
  builder_.beginFunctionScope(fn->params);
  llvm::Expected<Expr> body = rewriteSeqExpr(fn->body.get());
  builder_.endFunctionScope();
  if (!body)
    return body.takeError();
  if (body->get() == fn->body.get())
    return Expr(fn);
  const auto *seq = llvm::dyn_cast<SeqExprNode>(body->get());
  if (!seq)
    return diagError(fn->loc, "internal error: a function body was rewritten to a non-SeqExpr");
  return Expr(rebuildFunction(fn, SeqExpr(seq)));
}

llvm::Expected<Expr> ExprMutator::rewriteExpr(const Expr &e) {
  if (!e)
    return e;
  switch (e->getKind()) {
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    return lookupVar(llvm::cast<VarNode>(e.get()));
  case NodeKind::Tuple: {
    const auto *t = llvm::cast<TupleNode>(e.get());
    std::vector<Expr> fields;
    llvm::Expected<bool> changed =
        mapExprs(t->fields, fields, [&](const Expr &f) { return rewriteExpr(f); });
    if (!changed)
      return changed.takeError();
    if (!*changed)
      return e;
    return builder_.normalize(make<TupleNode>(std::move(fields)));
  }
  case NodeKind::TupleGetItem: {
    const auto *t = llvm::cast<TupleGetItemNode>(e.get());
    llvm::Expected<Expr> tuple = rewriteExpr(t->tuple);
    if (!tuple)
      return tuple.takeError();
    if (tuple->get() == t->tuple.get())
      return e;
    return builder_.normalize(make<TupleGetItemNode>(std::move(*tuple), t->index));
  }
  case NodeKind::Call:
    return rewriteCall(llvm::cast<CallNode>(e.get()));
  case NodeKind::If:
    return rewriteIf(llvm::cast<IfNode>(e.get()));
  case NodeKind::SeqExpr:
    return rewriteSeqExpr(llvm::cast<SeqExprNode>(e.get()));
  case NodeKind::Function:
    return rewriteFunctionExpr(llvm::cast<FunctionNode>(e.get()));
  default:
    return e;
  }
}

llvm::Expected<Expr> ExprMutator::rewriteCall(const CallNode *call) {
  llvm::Expected<Expr> op = rewriteExpr(call->op);
  if (!op)
    return op.takeError();
  std::vector<Expr> args;
  llvm::Expected<bool> argsChanged =
      mapExprs(call->args, args, [&](const Expr &a) { return rewriteExpr(a); });
  if (!argsChanged)
    return argsChanged.takeError();
  if (!*argsChanged && op->get() == call->op.get())
    return Expr(call);
  Expr fresh = make<CallNode>(*op, args, call->attrs, call->sinfoArgs);
  const_cast<ExprNode *>(fresh.get())->loc = call->loc;
  llvm::Expected<Expr> out = builder_.normalize(std::move(fresh));
  if (out || !call->sinfo)
    return out;
  // Inference cannot run (an unknown op keeps its annotated struct info):
  // the call keeps the struct info it had.
  llvm::consumeError(out.takeError());
  Expr kept =
      make<CallNode>(std::move(*op), std::move(args), call->attrs, call->sinfoArgs, call->sinfo);
  const_cast<ExprNode *>(kept.get())->loc = call->loc;
  return builder_.normalize(std::move(kept));
}

llvm::Expected<Expr> ExprMutator::rewriteIf(const IfNode *ifNode) {
  llvm::Expected<Expr> cond = rewriteExpr(ifNode->cond);
  if (!cond)
    return cond.takeError();
  auto branch = [&](const SeqExpr &b) -> llvm::Expected<Expr> {
    builder_.beginInnerScope();
    llvm::Expected<Expr> out = rewriteSeqExpr(b.get());
    builder_.endInnerScope();
    return out;
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
  Expr fresh = make<IfNode>(std::move(*cond), SeqExpr(t), SeqExpr(f));
  const_cast<ExprNode *>(fresh.get())->loc = ifNode->loc;
  return builder_.normalize(std::move(fresh));
}

llvm::Expected<Expr> ExprMutator::rewriteSeqExpr(const SeqExprNode *seq) {
  std::vector<BindingBlock> blocks;
  blocks.reserve(seq->blocks.size() + 1);
  bool changed = false;
  for (const BindingBlock &block : seq->blocks) {
    builder_.beginBlock(block->isDataflow);
    llvm::Error err = rewriteBlock(block.get());
    BindingBlock out = builder_.endBlock();
    if (err)
      return err;
    out = finishBlock(block.get(), std::move(out));
    bool same = out->bindings.size() == block->bindings.size();
    for (size_t i = 0; same && i < out->bindings.size(); ++i)
      same = out->bindings[i].get() == block->bindings[i].get();
    changed |= !same;
    blocks.push_back(same ? block : out);
  }
  builder_.beginBlock(false);
  llvm::Expected<Expr> body = rewriteExpr(seq->body);
  BindingBlock trailing = builder_.endBlock();
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
  for (const Binding &b : block->bindings)
    if (llvm::Error err = rewriteBinding(b.get()))
      return err;
  return llvm::Error::success();
}

llvm::Error ExprMutator::rewriteBinding(const BindingNode *binding) {
  llvm::Expected<Expr> value = rewriteExpr(binding->value);
  if (!value)
    return value.takeError();
  if (value->get() == binding->value.get())
    return builder_.emitBinding(binding);
  const VarNode *var = binding->var.get();
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding))
    return builder_.emitBinding(
        make<MatchCastNode>(binding->var, std::move(*value), mc->castSInfo, mc->loc));
  // The var keeps its identity while its struct info still describes the
  // new value; otherwise a fresh var of the same name and kind replaces it.
  const StructInfoNode *newSInfo = (*value)->sinfo.get();
  if (!newSInfo || structInfoIdentical(var->sinfo.get(), newSInfo))
    return builder_.emitBinding(
        make<VarBindingNode>(binding->var, std::move(*value), binding->loc));
  Var fresh = var->isDataflow()
                  ? Var(make<DataflowVarNode>(var->name, StructInfo(newSInfo), var->loc))
                  : make<VarNode>(var->name, StructInfo(newSInfo), var->loc);
  remapVar(var, fresh);
  return builder_.emitBinding(make<VarBindingNode>(fresh, std::move(*value), binding->loc));
}
