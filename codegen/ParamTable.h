//===- codegen/ParamTable.h - A function's parameter table -----*- C++ -*-===//
//
// What the VM checks inputs against before it runs a function (vm::ParamInfo):
// per parameter its kind, dtype, device and dims, a bare symbolic var by its
// name (one value across all parameters), a composite dim as "any".
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_PARAMTABLE_H
#define GRAFT_CODEGEN_PARAMTABLE_H

#include "ir/Expr.h"
#include "vm/Executable.h"

namespace graft::codegen {

/// One entry per parameter of `fn`; tensors without a vdevice are on
/// `defaultDevice`.
std::vector<vm::ParamInfo> paramTable(const FunctionNode &fn, DLDevice defaultDevice);

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_PARAMTABLE_H
