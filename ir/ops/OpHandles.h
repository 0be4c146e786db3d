//===- ir/ops/OpHandles.h - Typed handles of the ops passes name -*- C++ -*-===//
//
// `ops::memKillTensor()` is the interned Op node of relax.memory.kill_tensor,
// looked up in the registry once (the first call) and then returned by
// reference, so matching a call is a pointer compare:
//
//   if (call->op == ops::vmKillObject()) ...
//   if (const CallNode *c = asCallTo(expr, ops::callTIR())) ...
//
// The list is OpHandles.def; a name there that is not registered aborts on
// first use (getOp), and a test resolves every handle.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OPS_OPHANDLES_H
#define GRAFT_IR_OPS_OPHANDLES_H

#include "ir/Expr.h"

namespace graft {
namespace ops {

#define GRAFT_OP_HANDLE(Function, Name) const Op &Function();
#include "ir/ops/OpHandles.def"

} // namespace ops

/// Whether `call` calls `op` (an Op handle).
inline bool isCallTo(const CallNode &call, const Op &op) { return call.op.get() == op.get(); }

/// The call when `e` is a call to `op`, else null.
inline const CallNode *asCallTo(const ExprNode *e, const Op &op) {
  const auto *call = llvm::dyn_cast_or_null<CallNode>(e);
  return call && isCallTo(*call, op) ? call : nullptr;
}

} // namespace graft

#endif // GRAFT_IR_OPS_OPHANDLES_H
