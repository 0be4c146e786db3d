//===- ir/Walk.h - Finding the nodes of one kind ----------------*- C++ -*-===//
//
// walk<NodeT>(root, callback) calls `callback` on every node of class NodeT
// (isa<NodeT>) reachable from `root` through the Relax expression tree, in
// pre-order, left to right. It runs on an explicit work list, so a
// 100k-binding function or a deeply nested expression costs no stack, and
// needs no ExprVisitor subclass when all a caller wants is "every Call" or
// "is there a MatchCast".
//
// What it reaches: expressions (a function's params, its body), binding
// blocks, bindings and their vars and values, If branches, call operators
// and arguments, tuple fields. Vars are reached both where they are defined
// (params, binding vars) and where they are used. Struct info is not walked.
//
// The callback returns void, or a WalkResult: Skip does not descend into the
// node's children, Interrupt ends the walk. walk returns false when it was
// interrupted.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_WALK_H
#define GRAFT_IR_WALK_H

#include "ir/Expr.h"

#include "llvm/ADT/SmallVector.h"

#include <type_traits>

namespace graft {

enum class WalkResult { Advance, Skip, Interrupt };

namespace detail {
/// Pushes the children of `n` onto `stack` so that they pop left to right.
void pushWalkChildren(const Node *n, llvm::SmallVectorImpl<const Node *> &stack);
} // namespace detail

template <typename NodeT, typename Callback> bool walk(const Node *root, Callback &&callback) {
  llvm::SmallVector<const Node *, 64> stack;
  if (root)
    stack.push_back(root);
  while (!stack.empty()) {
    const Node *n = stack.pop_back_val();
    if (const auto *match = llvm::dyn_cast<NodeT>(n)) {
      if constexpr (std::is_void_v<decltype(callback(match))>) {
        callback(match);
      } else {
        WalkResult r = callback(match);
        if (r == WalkResult::Interrupt)
          return false;
        if (r == WalkResult::Skip)
          continue;
      }
    }
    detail::pushWalkChildren(n, stack);
  }
  return true;
}

/// Whether some node of class NodeT under `root` satisfies `pred`.
template <typename NodeT, typename Pred> bool containsNode(const Node *root, Pred &&pred) {
  return !walk<NodeT>(
      root, [&](const NodeT *n) { return pred(n) ? WalkResult::Interrupt : WalkResult::Advance; });
}
template <typename NodeT> bool containsNode(const Node *root) {
  return containsNode<NodeT>(root, [](const NodeT *) { return true; });
}

} // namespace graft

#endif // GRAFT_IR_WALK_H
