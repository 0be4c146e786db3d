//===- codegen/CodeGen.cpp - Finalized IR to VM bytecode ------------------===//

#include "codegen/CodeGen.h"

#include "codegen/FunctionCodeGen.h"
#include "codegen/FusedKernelGen.h"
#include "pass/Pass.h"

using namespace graft;
using namespace graft::codegen;

llvm::Expected<std::unique_ptr<vm::Executable>>
codegen::generateExecutable(const IRModule &module, const CodeGenOptions &options) {
  vm::ExecBuilder builder;
  ModuleContext ctx(module, builder, options);
  for (const ModuleEntry &entry : module.entries()) {
    const FunctionNode *fn = entry.asFunction();
    // A Primitive function is a fused kernel's definition, run by its
    // graft.fused.<name> symbol from the kernel sources, not bytecode.
    if (!fn || isPrimitiveFunction(*fn))
      continue;
    FunctionCodeGen gen(ctx, *fn, ModuleContext::functionName(entry));
    if (auto err = gen.run())
      return err;
  }
  if (auto err = addFusedKernelSources(module, builder))
    return err;
  auto exe = builder.finish();
  if (exe && options.defaultDevice.device_type == kDLCUDA)
    (*exe)->target = vm::Target::CUDA;
  return exe;
}
