//===- codegen/LinearWalk.h - A function's bindings in emission order -*- C++ -*-===//
//
// Yields the events of a Relax function body in the order code generation
// emits them: each binding, an `if` as IfBegin, its then branch, BranchEnd,
// its else branch, BranchEnd, IfEnd, and finally FunctionEnd. Liveness and
// emission walk the same sequence, so an event's index is a position in
// linear bytecode order. Nesting lives on an explicit stack: no recursion on
// the depth of the input.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_LINEARWALK_H
#define GRAFT_CODEGEN_LINEARWALK_H

#include "ir/Expr.h"

#include <vector>

namespace graft::codegen {

struct WalkEvent {
  enum Kind { Binding, IfBegin, BranchEnd, IfEnd, FunctionEnd };
  Kind kind = Binding;
  /// Binding, IfBegin, IfEnd: the binding; BranchEnd: the binding of the if.
  const BindingNode *binding = nullptr;
  /// BranchEnd, FunctionEnd: the value the block yields.
  const ExprNode *result = nullptr;
  bool thenBranch = false; ///< BranchEnd.
};

class LinearWalk {
public:
  explicit LinearWalk(const FunctionNode &fn);
  /// The next event, or false at the end.
  bool next(WalkEvent &event);

private:
  enum class Role { Function, Then, Else };
  struct Frame {
    const SeqExprNode *seq;
    Role role;
    const BindingNode *ifBinding;
    size_t block = 0;
    size_t binding = 0;
  };
  bool seqDone(WalkEvent &event);

  std::vector<Frame> stack_;
  const BindingNode *pendingIfEnd_ = nullptr;
};

/// The if of an IfBegin/BranchEnd/IfEnd event's binding.
inline const IfNode &ifOf(const BindingNode &binding) {
  return *llvm::cast<IfNode>(binding.value.get());
}

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_LINEARWALK_H
