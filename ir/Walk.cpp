//===- ir/Walk.cpp - The children walk<NodeT> follows ------------------------===//

#include "ir/Walk.h"

#include "llvm/Support/ErrorHandling.h"

using namespace graft;

namespace {

/// Children are pushed last-first so that the work list pops them in order.
template <typename Range>
void pushReversed(const Range &r, llvm::SmallVectorImpl<const Node *> &s) {
  for (auto it = r.rbegin(); it != r.rend(); ++it)
    if (it->get())
      s.push_back(it->get());
}

void push(const Node *n, llvm::SmallVectorImpl<const Node *> &s) {
  if (n)
    s.push_back(n);
}

} // namespace

void detail::pushWalkChildren(const Node *n, llvm::SmallVectorImpl<const Node *> &stack) {
  switch (n->getKind()) {
  case NodeKind::Tuple:
    pushReversed(llvm::cast<TupleNode>(n)->fields, stack);
    return;
  case NodeKind::TupleGetItem:
    push(llvm::cast<TupleGetItemNode>(n)->tuple.get(), stack);
    return;
  case NodeKind::Call: {
    const auto *c = llvm::cast<CallNode>(n);
    pushReversed(c->args, stack);
    push(c->op.get(), stack);
    return;
  }
  case NodeKind::If: {
    const auto *i = llvm::cast<IfNode>(n);
    push(i->elseBranch.get(), stack);
    push(i->thenBranch.get(), stack);
    push(i->cond.get(), stack);
    return;
  }
  case NodeKind::SeqExpr: {
    const auto *seq = llvm::cast<SeqExprNode>(n);
    push(seq->body.get(), stack);
    pushReversed(seq->blocks, stack);
    return;
  }
  case NodeKind::Function: {
    const auto *f = llvm::cast<FunctionNode>(n);
    push(f->body.get(), stack);
    pushReversed(f->params, stack);
    return;
  }
  case NodeKind::BindingBlock:
    pushReversed(llvm::cast<BindingBlockNode>(n)->bindings, stack);
    return;
  case NodeKind::VarBinding:
  case NodeKind::MatchCast: {
    const auto *b = llvm::cast<BindingNode>(n);
    push(b->value.get(), stack);
    push(b->var.get(), stack);
    return;
  }
  // No Relax children: leaves, globals, ops, and what the walk does not
  // enter (struct info, PrimExprs, module-level objects).
#define GRAFT_PRIM_NODE(Kind, Class) case NodeKind::Kind:
#define GRAFT_SINFO_NODE(Kind, Class) case NodeKind::Kind:
#include "ir/NodeKinds.def"
  case NodeKind::PrimFunc:
  case NodeKind::VDevice:
  case NodeKind::DeviceMesh:
  case NodeKind::Attrs:
  case NodeKind::IndexMap:
  case NodeKind::Var:
  case NodeKind::DataflowVar:
  case NodeKind::Constant:
  case NodeKind::ShapeExpr:
  case NodeKind::PrimValue:
  case NodeKind::StringImm:
  case NodeKind::DataTypeImm:
  case NodeKind::ExternFunc:
  case NodeKind::GlobalVar:
  case NodeKind::Op:
    return;
  }
  reportCorruptNode("walk: unknown node kind");
}
