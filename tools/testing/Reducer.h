//===- tools/testing/Reducer.h - Shrinking a failing module -----------*- C++ -*-===//
//
// `graft reduce`: given a module on which a pipeline fails with a message
// containing some text (or on which build-cpu and the interpreter disagree),
// finds a smaller module that still does, as mlir-reduce and creduce do.
// Candidates come from the canonical text: chunks of lines removed
// (functions, bindings, branch bodies, whole blocks; halving the chunk size
// down to single lines) and integer dims replaced by 1. A candidate is kept
// only when it parses, verifies and is still interesting; the rounds repeat
// until none shrinks the module.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTING_REDUCER_H
#define GRAFT_TESTING_REDUCER_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace graft::testing {

struct ReduceOptions {
  std::string pipeline; ///< Run under verify-each.
  std::string match;    ///< The failure's message must contain it.
  /// Instead: build-cpu and the interpreter disagree on the inputs of
  /// `inputSeed` (the pipeline and match are not used).
  bool differential = false;
  uint64_t inputSeed = 0;
  unsigned maxUlps = 4;
};

struct ReduceResult {
  std::string text;   ///< The reduced module (class Before) as a pass-test file.
  unsigned tries = 0; ///< Candidates evaluated.
  size_t linesBefore = 0, linesAfter = 0;
};

/// Reduces the single module of `text`. An error when the input is not
/// interesting to begin with (or does not parse or verify).
llvm::Expected<ReduceResult> reduceModule(const std::string &text, const ReduceOptions &options);

} // namespace graft::testing

#endif // GRAFT_TESTING_REDUCER_H
