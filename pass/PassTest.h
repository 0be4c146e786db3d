//===- pass/PassTest.h - Before/Expected pass tests -------------*- C++ -*-===//
//
// The pass-test file format (docs/cli.md), shared by `graft test`, reproducers
// and C++ tests: modules `Before` and `Expected`, `# PIPELINE: <pipeline>`,
// optional `# CONFIG: key=value` lines, or `# EXPECT-ERROR: <substring>`
// (then the pipeline must fail with that message and `Expected` is absent).
//
// In a GoogleTest:
//   EXPECT_EQ(runPassTestText(R"(... Before/Expected text ...)"), "");
// prints the structural diff report when the output differs.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PASSTEST_H
#define GRAFT_PASS_PASSTEST_H

#include "pass/Pass.h"
#include "text/Parser.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace graft {

/// Fills a context from `KEY=VALUE` config lines, after the defaults that
/// depend on the pipeline text (docs/passes.md: `relax.backend.use_cuda_graph` is
/// true when the pipeline names rewrite-cuda-graph itself).
llvm::Error configurePassContext(PassContext &ctx, llvm::StringRef pipelineText,
                                 llvm::ArrayRef<std::string> configs);

/// Runs a parsed pass-test file. Returns "" when it passes, else a report
/// of the failure (the diff report when the output differs from Expected).
std::string runPassTest(ParsedFile &file);

/// Parses `text` (named `bufferName`) and runs it as a pass test.
std::string runPassTestText(llvm::StringRef text, llvm::StringRef bufferName = "test.py");

} // namespace graft

#endif // GRAFT_PASS_PASSTEST_H
