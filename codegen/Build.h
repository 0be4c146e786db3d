//===- codegen/Build.h - Pipeline plus code generation ----------*- C++ -*-===//
//
// What `graft build` does to a parsed module, for callers that hold one in
// memory (tests, `graft run FILE`): the target's build pipeline (`build-cpu`, `build-cuda`)
// with verify-each, then code generation.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_BUILD_H
#define GRAFT_CODEGEN_BUILD_H

#include "codegen/CodeGen.h"
#include "pass/PassManager.h"

namespace graft::codegen {

/// The named pipeline a target builds with ("cpu" -> "build-cpu").
llvm::Expected<std::string> buildPipelineFor(llvm::StringRef target);

/// Code generation options for a target: "cuda" puts tensors without a
/// vdevice on cuda:0 and marks the executable as built for CUDA.
CodeGenOptions codeGenOptionsFor(llvm::StringRef target, CodeGenOptions options = {});

struct BuildOptions {
  std::string target = "cpu";
  PassManagerOptions passes;
  std::vector<std::string> configs; ///< KEY=VALUE pass-context settings.
  CodeGenOptions codegen;
};

/// Verifies `module` (unless it opts out with check_well_formed=False), runs
/// the build pipeline on it in place, then generates code.
llvm::Expected<std::unique_ptr<vm::Executable>> buildExecutable(IRModule &module,
                                                                const BuildOptions &options = {});

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_BUILD_H
