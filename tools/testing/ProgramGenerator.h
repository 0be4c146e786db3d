//===- tools/testing/ProgramGenerator.h - Random well-formed programs -*- C++ -*-===//
//
// Writes a random Relax module as TVMScript text, valid by construction: the
// generator tracks every value's dtype and dims (a dim is an integer or a
// symbolic var's name) and only writes what struct-info inference accepts
// and every op's kernel runs. The same seed and options give the same text
// on every platform (the generator's own splitmix64 stream, no std
// distributions). docs/testing.md lists what the programs contain.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTING_PROGRAMGENERATOR_H
#define GRAFT_TESTING_PROGRAMGENERATOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace graft::testing {

struct GeneratorOptions {
  /// Roughly the number of bindings of `main`; helper functions get less.
  unsigned size = 12;
  /// Helper functions `main` may call.
  unsigned maxHelpers = 2;
  /// Ops never written, by their name in `R.<name>(...)` ("argmax",
  /// "nn.softmax"): the ops a device has no kernel for. A statement that
  /// would use one is dropped and another drawn, so the same seed gives
  /// another program than with no exclusions.
  std::vector<std::string> excludedOps;
  /// `if` on a 0-d bool tensor, which reads tensor data on the host (not
  /// done on a CUDA device yet); the other conditions stay.
  bool tensorConditions = true;
};

/// A module with a `main` function (and helpers) as TVMScript text.
std::string generateProgram(uint64_t seed, const GeneratorOptions &options = {});

} // namespace graft::testing

#endif // GRAFT_TESTING_PROGRAMGENERATOR_H
