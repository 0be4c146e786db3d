//===- pass/PassTest.cpp - Running Before/Expected pass tests -------------===//

#include "pass/PassTest.h"

#include "analysis/WellFormed.h"
#include "ir/AttrKeys.h"
#include "ir/Diagnostics.h"
#include "ir/StructuralEqual.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;

llvm::Error graft::configurePassContext(PassContext &ctx, llvm::StringRef pipelineText,
                                        llvm::ArrayRef<std::string> configs) {
  llvm::SmallVector<llvm::StringRef, 16> names;
  pipelineText.split(names, ',');
  for (llvm::StringRef n : names) {
    n = n.split('{').first.trim();
    if (n == "rewrite-cuda-graph" || n == "RewriteCUDAGraph")
      ctx.config[kUseCUDAGraphConfig.str()] = "true";
  }
  for (const std::string &c : configs) {
    auto [key, value] = llvm::StringRef(c).split('=');
    if (key.trim().empty() || !llvm::StringRef(c).contains('='))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "config '" + c + "' is not KEY=VALUE");
    ctx.config[key.trim().str()] = value.trim().str();
  }
  return llvm::Error::success();
}

namespace {

/// The diagnostics text of an error, locations resolved through `file`.
std::string errorText(llvm::Error err, const ParsedFile &file) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error rest =
      llvm::handleErrors(std::move(err), [&](const PassFailure &f) { return toDiagnostic(f); });
  printError(std::move(rest), file.sources.get(), os);
  return os.str();
}

std::string checkWellFormed(const IRModule &module, const ParsedFile &file) {
  std::vector<Violation> violations = verifyModule(module);
  if (violations.empty())
    return "";
  return "module " + module.name +
         " is not well-formed: " + errorText(toError(violations.front(), module), file);
}

} // namespace

std::string graft::runPassTest(ParsedFile &file) {
  IRModule *before = file.find("Before");
  IRModule *expected = file.find("Expected");
  if (!before)
    return "has no module Before";
  if (file.pipeline.empty())
    return "has no '# PIPELINE:' line";
  if (std::string bad = checkWellFormed(*before, file); !bad.empty() && before->checkWellFormed)
    return bad;
  auto pipeline = parsePipeline(file.pipeline);
  if (!pipeline)
    return llvm::toString(pipeline.takeError());
  PassContext ctx;
  if (llvm::Error err = configurePassContext(ctx, file.pipeline, file.configs))
    return llvm::toString(std::move(err));
  PassManager pm{PassManagerOptions()};
  llvm::Error err = pm.run(*before, *pipeline, ctx);
  if (!file.expectError.empty()) {
    if (!err)
      return "expected the pipeline to fail with '" + file.expectError + "', but it succeeded";
    std::string message = errorText(std::move(err), file);
    if (message.find(file.expectError) == std::string::npos)
      return "expected an error containing '" + file.expectError + "', got:\n" + message;
    return "";
  }
  if (err)
    return "pipeline failed:\n" + errorText(std::move(err), file);
  if (!expected)
    return "has no module Expected (and no '# EXPECT-ERROR:' line)";
  if (std::string bad = checkWellFormed(*expected, file); !bad.empty())
    return bad;
  llvm::Optional<Mismatch> mismatch = firstMismatch(*before, *expected);
  if (!mismatch)
    return "";
  return "output differs from Expected:\n" + mismatch->report();
}

std::string graft::runPassTestText(llvm::StringRef text, llvm::StringRef bufferName) {
  std::shared_ptr<llvm::SourceMgr> sm;
  auto file = parseText(text, bufferName, &sm);
  if (!file) {
    std::string out;
    llvm::raw_string_ostream os(out);
    printError(file.takeError(), sm.get(), os);
    return "does not parse:\n" + os.str();
  }
  return runPassTest(*file);
}
