//===- codegen/Build.cpp - Pipeline plus code generation ------------------===//

#include "codegen/Build.h"

#include "analysis/WellFormed.h"
#include "pass/PassTest.h"
#include "transforms/Passes.h"

using namespace graft;
using namespace graft::codegen;

llvm::Expected<std::string> codegen::buildPipelineFor(llvm::StringRef target) {
  if (target == "cpu")
    return std::string("build-cpu");
  if (target == "cuda")
    return std::string("build-cuda");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown target '" + target + "' (supported: cpu, cuda)");
}

CodeGenOptions codegen::codeGenOptionsFor(llvm::StringRef target, CodeGenOptions options) {
  if (target == "cuda")
    options.defaultDevice = DLDevice{kDLCUDA, 0};
  return options;
}

llvm::Expected<std::unique_ptr<vm::Executable>>
codegen::buildExecutable(IRModule &module, const BuildOptions &options) {
  auto name = buildPipelineFor(options.target);
  if (!name)
    return name.takeError();
  registerAllPasses();
  if (module.checkWellFormed) {
    std::vector<Violation> violations = verifyModule(module);
    if (!violations.empty())
      return toError(violations.front(), module);
  }
  auto pipeline = parsePipeline(*name);
  if (!pipeline)
    return pipeline.takeError();
  PassContext ctx;
  if (auto err = configurePassContext(ctx, *name, options.configs))
    return err;
  PassManager pm(options.passes);
  if (auto err = pm.run(module, *pipeline, ctx))
    return err;
  return generateExecutable(module, codeGenOptionsFor(options.target, options.codegen));
}
