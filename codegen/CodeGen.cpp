//===- codegen/CodeGen.cpp - Finalized IR to VM bytecode ------------------===//

#include "codegen/CodeGen.h"

#include "codegen/FunctionCodeGen.h"

using namespace graft;
using namespace graft::codegen;

llvm::Expected<std::unique_ptr<vm::Executable>>
codegen::generateExecutable(const IRModule &module, const CodeGenOptions &options) {
  vm::ExecBuilder builder;
  ModuleContext ctx(module, builder, options);
  for (const ModuleEntry &entry : module.entries()) {
    const FunctionNode *fn = entry.asFunction();
    if (!fn)
      continue;
    FunctionCodeGen gen(ctx, *fn, ModuleContext::functionName(entry));
    if (auto err = gen.run())
      return err;
  }
  return builder.finish();
}
