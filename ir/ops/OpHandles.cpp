//===- ir/ops/OpHandles.cpp - Typed handles of the ops passes name ---------===//
//
// Each handle is a function-local static: thread-safe, resolved on first
// use (after the registry has registered every op), then a plain load.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpHandles.h"

#include "ir/Op.h"

using namespace graft;

#define GRAFT_OP_HANDLE(Function, Name)                                                            \
  const Op &ops::Function() {                                                                      \
    static const Op op = getOp(Name);                                                              \
    return op;                                                                                     \
  }
#include "ir/ops/OpHandles.def"
