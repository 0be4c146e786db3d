//===- codegen/FusedKernelGen.h - Primitive functions to kernel programs -*- C++ -*-===//
//
// Each Primitive function fuse-elementwise made becomes a kernel source of
// the executable: {name: "graft.fused.<function>", text: its program}
// (docs/fusion.md, "Program format"), which the VM parses when it is
// created and runs with the CPU evaluator. The program is checked with the
// evaluator's own parser here, so a function the evaluator cannot run fails
// the build, not the run.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_FUSEDKERNELGEN_H
#define GRAFT_CODEGEN_FUSEDKERNELGEN_H

#include "ir/Module.h"

#include "llvm/Support/Error.h"

#include <string>

namespace graft {

namespace vm {
class ExecBuilder;
}

/// The kernel program of the Primitive function `fn` named `name`: its
/// tensor parameters as inputs, its rank-0 constants as immediates, one op
/// line per binding, the result as the output.
llvm::Expected<std::string> fusedKernelProgram(const FunctionNode &fn, llvm::StringRef name);

/// Adds the program of every Primitive function of `module` to `builder`
/// as the kernel source `graft.fused.<name>`.
llvm::Error addFusedKernelSources(const IRModule &module, vm::ExecBuilder &builder);

} // namespace graft

#endif // GRAFT_CODEGEN_FUSEDKERNELGEN_H
