//===- codegen/RegisterAllocator.cpp - Registers reused after last use ----===//

#include "codegen/RegisterAllocator.h"

#include "ir/Op.h"

using namespace graft;
using namespace graft::codegen;

/// Vars among `e` and the fields of tuple literals inside it (a work list:
/// tuple nesting is input-controlled).
static void forEachLeafVar(const ExprNode *e, llvm::function_ref<void(const VarNode *)> fn) {
  llvm::SmallVector<const ExprNode *, 8> work{e};
  while (!work.empty()) {
    const ExprNode *x = work.pop_back_val();
    if (const auto *v = llvm::dyn_cast_or_null<VarNode>(x))
      fn(v);
    else if (const auto *t = llvm::dyn_cast_or_null<TupleNode>(x))
      for (auto it = t->fields.rbegin(); it != t->fields.rend(); ++it)
        work.push_back(it->get());
  }
}

void codegen::forEachUse(const WalkEvent &event, llvm::function_ref<void(const VarNode *)> fn) {
  switch (event.kind) {
  case WalkEvent::Binding: {
    const ExprNode *value = event.binding->value.get();
    if (const auto *call = llvm::dyn_cast<CallNode>(value)) {
      if (llvm::isa<VarNode>(call->op.get()))
        fn(llvm::cast<VarNode>(call->op.get()));
      for (const Expr &a : call->args)
        forEachLeafVar(a.get(), fn);
    } else if (const auto *get = llvm::dyn_cast<TupleGetItemNode>(value)) {
      forEachLeafVar(get->tuple.get(), fn);
    } else {
      forEachLeafVar(value, fn);
    }
    return;
  }
  case WalkEvent::IfBegin:
    forEachLeafVar(ifOf(*event.binding).cond.get(), fn);
    return;
  case WalkEvent::BranchEnd:
  case WalkEvent::FunctionEnd:
    forEachLeafVar(event.result, fn);
    return;
  case WalkEvent::IfEnd:
    return;
  }
}

RegisterAllocator::RegisterAllocator(const FunctionNode &fn) {
  next_ = static_cast<int64_t>(fn.params.size());
  LinearWalk walk(fn);
  WalkEvent event;
  for (int64_t pos = 0; walk.next(event); ++pos)
    forEachUse(event, [&](const VarNode *v) { lastUse_[v] = pos; });
  // Parameters keep their registers.
  for (const Var &p : fn.params)
    lastUse_.erase(p.get());
}

int64_t RegisterAllocator::allocate() {
  if (free_.empty())
    return next_++;
  int64_t reg = free_.top();
  free_.pop();
  return reg;
}

void RegisterAllocator::release(int64_t reg) { free_.push(reg); }

int64_t RegisterAllocator::temporary() {
  int64_t reg = allocate();
  temporaries_.push_back(reg);
  return reg;
}

void RegisterAllocator::own(const VarNode *v, int64_t reg) {
  auto it = lastUse_.find(v);
  // A var used before its definition cannot happen in well-formed IR; free
  // at the end of this event in that case too.
  int64_t last = it == lastUse_.end() ? pos_ : std::max(it->second, pos_);
  freeAt_[last].push_back(reg);
}

int64_t RegisterAllocator::allocateFor(const VarNode *v) {
  int64_t reg = allocate();
  own(v, reg);
  return reg;
}

void RegisterAllocator::endEvent() {
  for (int64_t reg : temporaries_)
    release(reg);
  temporaries_.clear();
  auto it = freeAt_.find(pos_);
  if (it != freeAt_.end()) {
    for (int64_t reg : it->second)
      release(reg);
    freeAt_.erase(it);
  }
  ++pos_;
}
