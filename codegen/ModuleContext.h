//===- codegen/ModuleContext.h - What function code generators share -*- C++ -*-===//
//
// The module, the executable builder and the function table: a module
// function's name resolves to a VM function (Relax), a packed function
// (ExternFunc, or a generated PrimFunc whose scalar program is added to the
// kernel sources on first mention).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_MODULECONTEXT_H
#define GRAFT_CODEGEN_MODULECONTEXT_H

#include "codegen/CodeGen.h"
#include "vm/ExecBuilder.h"

#include "llvm/ADT/StringSet.h"

namespace graft::codegen {

class ModuleContext {
public:
  ModuleContext(const IRModule &module, vm::ExecBuilder &builder, const CodeGenOptions &options)
      : module(module), builder(builder), options(options) {}

  /// A FuncIdx argument for the module function `gv` names.
  llvm::Expected<vm::Arg> globalArg(const GlobalVarNode &gv, llvm::SMLoc loc);

  /// The name a Relax function has in the function table.
  static std::string functionName(const ModuleEntry &entry);

  const IRModule &module;
  vm::ExecBuilder &builder;
  const CodeGenOptions &options;

private:
  llvm::Expected<vm::Arg> primFuncArg(const ModuleEntry &entry, llvm::SMLoc loc);

  llvm::StringSet<> programs_;
};

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_MODULECONTEXT_H
