//===- codegen/CodeGen.h - Finalized IR to VM bytecode ---------*- C++ -*-===//
//
// Lowers a module the `finalize` pipeline produced to a vm::Executable, as
// TVM's CodeGenVM does (codegen_vm.cc), with these choices (docs/codegen.md):
//   - registers are reused once the value they hold is dead (the last use in
//     linear order; kills count as uses), and a value nobody reads goes to
//     the void register;
//   - constants of every dtype go to the pool, small integers are immediates;
//   - calls of Relax functions, closures, packed functions and kernels go
//     through the function table; generated host PrimFuncs (shape_func,
//     compute_symbolic_expr) become scalar programs among the kernel sources
//     (vm/ScalarProgram.h);
//   - every function gets a parameter table from its signature, which the VM
//     checks inputs against before running.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_CODEGEN_H
#define GRAFT_CODEGEN_CODEGEN_H

#include "ir/Module.h"
#include "vm/Executable.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace graft::codegen {

struct CodeGenOptions {
  /// The device tensors live on when their struct info names no vdevice.
  DLDevice defaultDevice{kDLCPU, 0};
};

/// Generates the executable of a finalized module. Errors are located
/// (DiagnosticError) where the IR has a location.
llvm::Expected<std::unique_ptr<vm::Executable>>
generateExecutable(const IRModule &module, const CodeGenOptions &options = {});

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_CODEGEN_H
