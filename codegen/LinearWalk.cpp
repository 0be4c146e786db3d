//===- codegen/LinearWalk.cpp - A function's bindings in emission order ---===//

#include "codegen/LinearWalk.h"

using namespace graft;
using namespace graft::codegen;

LinearWalk::LinearWalk(const FunctionNode &fn) {
  stack_.push_back({fn.body.get(), Role::Function, nullptr});
}

bool LinearWalk::next(WalkEvent &event) {
  if (pendingIfEnd_) {
    event = {WalkEvent::IfEnd, pendingIfEnd_, nullptr, false};
    pendingIfEnd_ = nullptr;
    return true;
  }
  while (!stack_.empty()) {
    Frame &f = stack_.back();
    if (f.block == f.seq->blocks.size())
      return seqDone(event);
    const auto &bindings = f.seq->blocks[f.block]->bindings;
    if (f.binding == bindings.size()) {
      ++f.block;
      f.binding = 0;
      continue;
    }
    const BindingNode *b = bindings[f.binding++].get();
    if (const auto *ifNode = llvm::dyn_cast<IfNode>(b->value.get())) {
      stack_.push_back({ifNode->thenBranch.get(), Role::Then, b});
      event = {WalkEvent::IfBegin, b, nullptr, false};
      return true;
    }
    event = {WalkEvent::Binding, b, nullptr, false};
    return true;
  }
  return false;
}

/// The innermost block is done: report its result and move on.
bool LinearWalk::seqDone(WalkEvent &event) {
  Frame done = stack_.back();
  stack_.pop_back();
  const ExprNode *result = done.seq->body.get();
  switch (done.role) {
  case Role::Function:
    event = {WalkEvent::FunctionEnd, nullptr, result, false};
    return true;
  case Role::Then:
    stack_.push_back({ifOf(*done.ifBinding).elseBranch.get(), Role::Else, done.ifBinding});
    event = {WalkEvent::BranchEnd, done.ifBinding, result, true};
    return true;
  case Role::Else:
    pendingIfEnd_ = done.ifBinding;
    event = {WalkEvent::BranchEnd, done.ifBinding, result, false};
    return true;
  }
  return false;
}
