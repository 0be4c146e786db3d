//===- transforms/FusedOps.h - How an op call is written in a fused kernel -*- C++ -*-===//
//
// The one description of which op calls a fused kernel can hold and how:
// fuse-elementwise asks it whether a call may join a group (and checks the
// group's function with it again), codegen writes the call's program line
// from it (docs/fusion.md, "Program format"). So a group the pass forms is
// always one codegen can write.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_FUSEDOPS_H
#define GRAFT_TRANSFORMS_FUSEDOPS_H

#include "ir/Expr.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace graft {

/// A dim of a reshape or broadcast_to target in a fused program.
struct FusedDim {
  enum Kind { Fixed, Infer, OperandDim } kind;
  /// Fixed: the extent; OperandDim: the index of the data operand's dim.
  int64_t value;
};

/// An op call as a line of a fused program.
struct FusedOpForm {
  /// The op's name in the program: its registry name, except flatten
  /// (a reshape).
  std::string op;
  /// The tensor operands (vars or constants) in program order: concat's
  /// tuple fields, take's data then indices.
  llvm::SmallVector<const ExprNode *, 3> operands;
  /// Attributes other than a target shape, in program order, as written.
  llvm::SmallVector<std::pair<std::string, std::string>, 4> attrs;
  /// reshape and broadcast_to: the target shape.
  bool hasShape = false;
  llvm::SmallVector<FusedDim, 4> shape;
  /// An injective op (its result reads operands at other indices).
  bool injective = false;
};

/// How `call`, bound to a var of struct info `result`, is written in a
/// fused program; None when it cannot be: an op outside the program's op
/// set, an impure or host-reading call, an operand or result that is not a
/// tensor of known dtype and rank, an attribute that is not a constant
/// (strided_slice bounds, clip bounds), take without an axis or in mode
/// "nan", concat without an axis, a target shape with a dim that is neither
/// a constant nor a dim of the operand (but one a reshape infers).
llvm::Optional<FusedOpForm> fusedOpForm(const CallNode &call, const StructInfoNode *result);

} // namespace graft

#endif // GRAFT_TRANSFORMS_FUSEDOPS_H
