//===- tools/graft/OptCommand.cpp - graft opt, graft passes, graft test -----===//

#include "Driver.h"
#include "LitSupport.h"

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "pass/PassManager.h"
#include "pass/PassTest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace graft;
using namespace graft::driver;

namespace {

int reportFailure(llvm::Error err, const LoadedFile &file) {
  int code = kBadInput;
  llvm::Error rest = llvm::handleErrors(std::move(err), [&](const PassFailure &f) {
    code = f.exitCode;
    return toDiagnostic(f);
  });
  reportError(std::move(rest), &file);
  return code;
}

} // namespace

std::unique_ptr<Input> driver::runPipelineOnFile(const OptArgs &args, llvm::TimerGroup &timers,
                                                 int &exitCode) {
  llvm::Timer parseTimer("parse", "parse + verify input", timers);
  std::unique_ptr<Input> input;
  // verify-each reuses what the input verification checked.
  VerifyCache verifyCache;
  {
    llvm::TimeRegion region(args.pm.timing ? &parseTimer : nullptr);
    input = openInput(args.file, args.moduleName, /*exactlyOne=*/true, args.text);
    exitCode = kBadInput;
    if (!input)
      return nullptr;
    exitCode = kNegative;
    if (!verifyAndReport(*input->modules.front(), input->file, false, &verifyCache))
      return nullptr;
  }
  LoadedFile *file = &input->file;
  IRModule *module = input->modules.front();

  std::string pipelineText = args.pipeline.empty() ? file->file.pipeline : args.pipeline;
  exitCode = kBadInput;
  auto pipeline = parsePipeline(pipelineText);
  if (!pipeline) {
    reportError(pipeline.takeError(), file);
    return nullptr;
  }
  PassContext ctx;
  std::vector<std::string> configs = file->file.configs;
  configs.insert(configs.end(), args.configs.begin(), args.configs.end());
  if (llvm::Error err = configurePassContext(ctx, pipelineText, configs)) {
    reportError(std::move(err), file);
    return nullptr;
  }

  PassManagerOptions pmOptions = args.pm;
  pmOptions.verifyCache = &verifyCache;
  pmOptions.timerGroup = &timers;
  PassManager pm(pmOptions);
  if (llvm::Error err = pm.run(*module, *pipeline, ctx)) {
    exitCode = reportFailure(std::move(err), *file);
    return nullptr;
  }
  exitCode = kSuccess;
  return input;
}

int driver::runOpt(const OptArgs &args) {
  if (args.splitInputFile || args.verifyDiagnostics)
    return runOptOnSplits(args);
  llvm::TimerGroup timers("graft", "graft execution timing (parse, passes, print)");
  llvm::Timer printTimer("print", "print output", timers);
  int exitCode = kSuccess;
  std::unique_ptr<Input> input = runPipelineOnFile(args, timers, exitCode);
  if (!input)
    return exitCode;
  IRModule *module = input->modules.front();

  llvm::TimeRegion region(args.pm.timing ? &printTimer : nullptr);
  if (args.output.empty() || args.output == "-") {
    printModule(llvm::outs(), *module);
    return kSuccess;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(args.output, ec);
  if (ec) {
    llvm::errs() << "graft: error: cannot write " << args.output << ": " << ec.message() << "\n";
    return kBadInput;
  }
  printModule(os, *module);
  return kSuccess;
}

int driver::runPasses(bool all) {
  llvm::raw_ostream &os = llvm::outs();
  os << "Passes:\n";
  for (const PassInfo *p : allPasses()) {
    if (p->testOnly && !all)
      continue;
    os << "  " << p->name;
    if (!p->alias.empty())
      os << " (" << p->alias << ")";
    os << "\n      " << p->summary << "\n";
    for (const PassOptionSpec &o : p->options)
      os << "      option " << o.name << "=" << o.defaultValue << ": " << o.description << "\n";
    if (!p->preconditions.empty())
      os << "      needs: " << p->preconditions << "\n";
  }
  os << "Pipelines:\n";
  for (const PipelineInfo *p : allPipelines())
    os << "  " << p->name << "\n      " << p->summary << "\n      = " << p->text << "\n";
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// graft test
//===----------------------------------------------------------------------===//

namespace {

void collectTestFiles(llvm::StringRef path, std::vector<std::string> &out) {
  if (!llvm::sys::fs::is_directory(path)) {
    out.push_back(path.str());
    return;
  }
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".py" && !llvm::sys::fs::is_directory(it->path()))
      out.push_back(it->path());
}

/// Runs one pass-test file; returns "" on success, else the failure report.
std::string runTestFile(const std::string &path) {
  auto file = loadFile(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return "does not parse (see above)";
  }
  return runPassTest(file->file);
}

} // namespace

int driver::runTest(const std::vector<std::string> &paths) {
  std::vector<std::string> files;
  for (const std::string &p : paths)
    collectTestFiles(p, files);
  std::sort(files.begin(), files.end());
  unsigned passed = 0, failed = 0;
  for (const std::string &f : files) {
    std::string failure = runTestFile(f);
    if (failure.empty()) {
      ++passed;
      continue;
    }
    ++failed;
    llvm::outs() << "FAIL " << f << ": " << failure << "\n";
  }
  llvm::outs() << passed << " passed, " << failed << " failed\n";
  return failed ? kNegative : kSuccess;
}
