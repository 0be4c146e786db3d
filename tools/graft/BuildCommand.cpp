//===- tools/graft/BuildCommand.cpp - graft build -------------------------===//
//
// Runs the target's build pipeline with the debugging flags of opt (shared
// through runPipelineOnFile), generates the executable and writes it,
// creating the output's folders.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "codegen/Build.h"
#include "ir/AttrKeys.h"
#include "vm/Serialize.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;

std::unique_ptr<vm::Executable> driver::buildFromSource(const OptArgs &args, llvm::StringRef target,
                                                        llvm::TimerGroup &timers, int &exitCode) {
  auto pipeline = codegen::buildPipelineFor(target);
  if (!pipeline) {
    reportError(pipeline.takeError(), nullptr);
    exitCode = kBadInput;
    return nullptr;
  }
  OptArgs pipelineArgs = args;
  pipelineArgs.pipeline = *pipeline;
  // CUDA builds capture static regions into CUDA graphs by default (first,
  // so that --config can still turn them off).
  if (target == "cuda" && args.cudaGraph)
    pipelineArgs.configs.insert(pipelineArgs.configs.begin(), kUseCUDAGraphConfig.str() + "=true");
  // Made first: a group reports when its last timer goes, so it must
  // outlive the pipeline's timers to give one report.
  llvm::Timer codegenTimer("codegen", "code generation", timers);
  std::unique_ptr<Input> input = runPipelineOnFile(pipelineArgs, timers, exitCode);
  if (!input)
    return nullptr;
  llvm::TimeRegion region(args.pm.timing ? &codegenTimer : nullptr);
  auto exe =
      codegen::generateExecutable(*input->modules.front(), codegen::codeGenOptionsFor(target));
  if (!exe) {
    reportError(exe.takeError(), &input->file);
    exitCode = kBadInput;
    return nullptr;
  }
  return std::move(*exe);
}

int driver::runBuild(const OptArgs &args, llvm::StringRef target) {
  if (args.output.empty()) {
    llvm::errs() << "graft build: error: no output file (use -o OUT.gexe)\n";
    return kBadInput;
  }
  llvm::TimerGroup timers("graft", "graft execution timing (parse, passes, codegen)");
  int exitCode = kSuccess;
  std::unique_ptr<vm::Executable> exe = buildFromSource(args, target, timers, exitCode);
  if (!exe)
    return exitCode;
  // As `graft run --out` does for its folder, the executable's folders are
  // created (`-o out/model.gexe` in a fresh checkout).
  llvm::StringRef parent = llvm::sys::path::parent_path(args.output);
  if (std::error_code ec =
          parent.empty() ? std::error_code() : llvm::sys::fs::create_directories(parent)) {
    llvm::errs() << "graft build: error: cannot create the folder '" << parent << "' of '"
                 << args.output << "': " << ec.message() << "\n";
    return kBadInput;
  }
  if (llvm::Error err = vm::saveToFile(*exe, args.output)) {
    reportError(std::move(err), nullptr);
    return kBadInput;
  }
  return kSuccess;
}
