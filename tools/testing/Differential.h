//===- tools/testing/Differential.h - Generated programs, two ways -----*- C++ -*-===//
//
// For each seed: the generated program must verify; every registered pass
// alone and every named pipeline, under verify-each, must keep it
// well-formed (a precondition a pass states is not a failure), and its
// output must print and parse back to an equal module; and the
// program built with build-cpu and run in the VM must give what the
// reference interpreter gives on the same random inputs: integers and bools
// exactly, floats within `maxUlps`, both failing at run time counting as
// agreement. docs/testing.md has the figures.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTING_DIFFERENTIAL_H
#define GRAFT_TESTING_DIFFERENTIAL_H

#include "tools/testing/ProgramGenerator.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace graft::testing {

struct DifferentialOptions {
  uint64_t firstSeed = 0;
  uint64_t count = 100;
  GeneratorOptions generator;
  bool passes = true; ///< Every pass alone and every named pipeline.
  /// With `passes`: every pass again after fuse-elementwise,legalize-ops.
  bool lowered = false;
  bool run = true; ///< build-cpu in the VM against the interpreter.
  /// Float results may differ by this many units in the last place (fused
  /// kernels evaluate the same expressions, so differences are rounding).
  unsigned maxUlps = 4;
  /// When set, each failing program is written there as seed-N.py.
  std::string keepDir;
  /// Also log the runs where both sides failed (both messages) and the
  /// passes refused by a precondition.
  bool verbose = false;
};

struct DifferentialReport {
  uint64_t programs = 0;
  uint64_t passRuns = 0;             ///< Pass or pipeline runs that kept the IR well-formed.
  uint64_t preconditions = 0;        ///< Runs a pass refused with a stated precondition.
  uint64_t roundTrips = 0;           ///< Outputs that printed and parsed back equal.
  uint64_t compared = 0;             ///< Runs whose results were compared.
  uint64_t bothFailed = 0;           ///< Runs where the VM and the interpreter both failed.
  uint64_t unsupported = 0;          ///< Programs the interpreter does not run.
  std::vector<std::string> failures; ///< One line per failure, naming the seed.
};

/// One program, built with build-cpu and run in the VM, against the
/// interpreter, on the random inputs of `seed`.
struct TwoWayResult {
  /// Invalid: the program itself is unusable (no parse, no main, no inputs).
  enum Outcome { Agree, BothFailed, Unsupported, Differ, Invalid } outcome;
  std::string message; ///< What differs, or both errors.
};
TwoWayResult runTwoWays(const std::string &text, uint64_t seed, unsigned maxUlps);

/// Runs the differential test; progress and failures go to `log`.
DifferentialReport runDifferential(const DifferentialOptions &options, llvm::raw_ostream &log);

} // namespace graft::testing

#endif // GRAFT_TESTING_DIFFERENTIAL_H
