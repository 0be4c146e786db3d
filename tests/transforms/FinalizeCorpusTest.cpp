//===- tests/transforms/FinalizeCorpusTest.cpp - finalize over the corpus ---===//
//
// Every text file under tests/ (and examples/) that holds a call_tir or
// call_dps_packed kernel call is lowered with the `finalize` pipeline
// through the PassManager with verify-each, module by module; each run must
// succeed. Files are chosen by content, so new test files join by
// themselves. Modules that do not parse or verify (the negative cases of
// tests/verify, EXPECT-ERROR files) are not inputs and are skipped, and so
// are modules with nested functions: TVM's build runs LambdaLift before
// finalize, and vm-shape-lower refuses them (exit 2) by design.
//
// While a pass of the pipeline is not registered yet the test is skipped and
// names it, rather than passing silently.
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormed.h"
#include "ir/Visitor.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace graft;

namespace {

/// Whether some Relax function of the module defines a local function.
bool hasNestedFunction(const IRModule &module) {
  struct Finder : ExprVisitor {
    unsigned depth = 0;
    bool found = false;
    void visitFunction(const FunctionNode *fn) override {
      found |= depth > 0;
      ++depth;
      ExprVisitor::visitFunction(fn);
      --depth;
    }
  } finder;
  finder.visitModule(module);
  return finder.found;
}

bool holdsKernelCall(llvm::StringRef text) {
  return text.contains("R.call_tir") || text.contains("R.call_dps_packed");
}

/// The corpus: .py files under tests/ and examples/ with kernel calls.
std::vector<std::string> corpusFiles() {
  std::vector<std::string> out;
  for (const char *dir : {"tests", "examples"}) {
    std::filesystem::path root = std::filesystem::path(GRAFT_SOURCE_DIR) / dir;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file() || it->path().extension() != ".py")
        continue;
      auto buf = llvm::MemoryBuffer::getFile(it->path().string());
      if (buf && holdsKernelCall((*buf)->getBuffer()))
        out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Why the pipeline cannot be built yet ("unknown pass 'x' ..."), or "".
std::string missingPass() {
  auto pipeline = parsePipeline("finalize");
  return pipeline ? std::string() : llvm::toString(pipeline.takeError());
}

struct FileOutcome {
  unsigned lowered = 0;
  std::vector<std::string> failures;
};

/// Lowers each valid module of one file; failures are "MODULE: message".
FileOutcome lowerFile(const std::string &path) {
  FileOutcome outcome;
  auto parsed = parseFile(path);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return outcome;
  }
  if (!parsed->expectError.empty())
    return outcome;
  for (std::unique_ptr<IRModule> &module : parsed->modules) {
    if (!verifyModule(*module).empty() || hasNestedFunction(*module))
      continue;
    auto pipeline = parsePipeline("finalize");
    if (!pipeline) {
      outcome.failures.push_back(llvm::toString(pipeline.takeError()));
      return outcome;
    }
    PassManagerOptions options;
    options.verifyEach = true;
    PassManager pm(options);
    PassContext ctx;
    if (llvm::Error err = pm.run(*module, *pipeline, ctx))
      outcome.failures.push_back(module->name + ": " + llvm::toString(std::move(err)));
    else
      ++outcome.lowered;
  }
  return outcome;
}

TEST(FinalizeCorpus, SelectsFilesByContent) {
  std::vector<std::string> files = corpusFiles();
  EXPECT_GE(files.size(), 10u);
  for (const std::string &f : files)
    EXPECT_EQ(f.find(".cpp"), std::string::npos) << f;
  bool hasExample = std::any_of(files.begin(), files.end(), [](const std::string &f) {
    return llvm::StringRef(f).endswith("examples/call_tir.py");
  });
  EXPECT_TRUE(hasExample);
}

TEST(FinalizeCorpus, EveryKernelModuleLowersWithVerifyEach) {
  std::string missing = missingPass();
  if (!missing.empty())
    GTEST_SKIP() << "finalize cannot run yet: " << missing;
  unsigned lowered = 0;
  for (const std::string &path : corpusFiles()) {
    SCOPED_TRACE(path);
    FileOutcome outcome = lowerFile(path);
    lowered += outcome.lowered;
    for (const std::string &failure : outcome.failures)
      ADD_FAILURE() << path << ": " << failure;
  }
  // The corpus must really exercise the pipeline.
  EXPECT_GE(lowered, 10u);
}

} // namespace
