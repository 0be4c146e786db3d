//===- tests/analysis/AnalysisTestUtil.h - Parsing helpers for analyses -*- C++ -*-===//
#ifndef GRAFT_TESTS_ANALYSIS_ANALYSISTESTUTIL_H
#define GRAFT_TESTS_ANALYSIS_ANALYSISTESTUTIL_H

#include "text/Parser.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>

namespace graft::testing {

/// Parses `text` (one module) and returns it; fails the test on error.
inline std::unique_ptr<IRModule> parseModule(const std::string &text) {
  llvm::Expected<ParsedFile> file = parseText(text, "test.py");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return nullptr;
  }
  if (file->modules.size() != 1) {
    ADD_FAILURE() << "expected one module";
    return nullptr;
  }
  return std::move(file->modules.front());
}

inline const FunctionNode *function(const IRModule &m, llvm::StringRef name) {
  const ModuleEntry *e = m.lookup(name);
  return e ? e->asFunction() : nullptr;
}

} // namespace graft::testing

#endif
