//===- tools/testing/Differential.h - Generated programs, two ways -----*- C++ -*-===//
//
// For each seed: the generated program must verify; every registered pass
// alone and every named pipeline, under verify-each, must keep it
// well-formed (a precondition a pass states is not a failure), and its
// output must print and parse back to an equal module; and the
// program built with build-cpu and run in the VM must give what the
// reference interpreter gives on the same random inputs: integers and bools
// exactly, floats within `maxUlps`, both failing at run time counting as
// agreement. With a device (`--device cuda`), each program is instead built
// for both targets and the device's results are compared with the CPU's;
// the generator leaves out the ops the device has no kernel for.
// docs/testing.md has the figures.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTING_DIFFERENTIAL_H
#define GRAFT_TESTING_DIFFERENTIAL_H

#include "tools/testing/ProgramGenerator.h"

#include "ir/Module.h"
#include "vm/Value.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace graft::testing {

/// When two float results count as equal: the same value (NaN equals NaN),
/// or at most `maxUlps` units in the last place apart, or
/// |a - b| <= epsTol * eps(dtype) * max(1, |a|, |b|). Integers, bools,
/// shapes and prim values are always compared exactly.
struct FloatBounds {
  unsigned maxUlps = 4;
  double epsTol = 0;
};

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
  /// With `device`: the relative bound of FloatBounds.
  double epsTol = 0;
  /// "" compares build-cpu with the interpreter; a device ("cuda") compares
  /// the program built for it and run there with build-cpu on the CPU (and
  /// runs no passes: they do not depend on the device). The generator's
  /// options should then leave out what the device cannot run
  /// (opsWithoutKernel).
  std::string device;
  /// When set, each failing program is written there as seed-N.py.
  std::string keepDir;
  /// Also log the runs where both sides failed (both messages) and the
  /// passes refused by a precondition.
  bool verbose = false;
};

struct DifferentialReport {
  uint64_t programs = 0;
  uint64_t passRuns = 0;      ///< Pass or pipeline runs that kept the IR well-formed.
  uint64_t preconditions = 0; ///< Runs a pass refused with a stated precondition.
  uint64_t roundTrips = 0;    ///< Outputs that printed and parsed back equal.
  uint64_t compared = 0;      ///< Runs whose results were compared.
  uint64_t bothFailed = 0;    ///< Runs where the VM and the interpreter both failed.
  uint64_t unsupported = 0;   ///< Programs the interpreter does not run.
  /// With a device: programs skipped because the device cannot run them (a
  /// kernel it lacks, a documented limit of one), by reason.
  uint64_t skipped = 0;
  std::map<std::string, uint64_t> skipReasons;
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

/// The float width (bits) each output of `main` was computed in: for every
/// output path ("output", "output_1", "output_1_0", as the comparison names
/// them) the narrowest float dtype of any value it depends on (operands,
/// constants, the functions it calls), 0 for none. A float64 output of
/// float32 math (`astype(sin(x), "float64")`) carries float32's rounding.
std::map<std::string, unsigned> outputFloatBits(const IRModule &module, const FunctionNode &main);

/// Compares a device's outputs with the CPU's: as the default mode, except
/// that a float output computed in a narrower float than its dtype (per
/// `computedBits`, from outputFloatBits) is held to that narrower dtype's
/// bound (a float64 output of float32 math to float32's ulps and epsilon).
/// "" when they agree, else where they differ.
std::string compareDeviceOutputs(const vm::Value &device, const vm::Value &cpu,
                                 const FloatBounds &bounds,
                                 const std::map<std::string, unsigned> &computedBits);

/// One program built with build-cpu and run on the CPU, against the same
/// program built for `target` ("cpu", "cuda") and run on its device, on the
/// random inputs of `seed` (floats are multiples of 1/16, so sums and
/// products of a few of them are exact in any order). Unsupported: the
/// device cannot run the program (a kernel without a version for it, a
/// limit its kernel states "on CUDA, ..."), never a disagreement.
TwoWayResult runOnTarget(const std::string &text, uint64_t seed, const std::string &target,
                         const FloatBounds &bounds);

/// The ops (names as written after `R.`: "argmax", "nn.softmax") whose
/// kernel `target`'s device cannot run: no version for the device, or a
/// host read of device data. Loads the device: "no CUDA device: ..." when
/// there is none.
llvm::Expected<std::vector<std::string>> opsWithoutKernel(const std::string &target);

/// Runs the differential test; progress and failures go to `log`.
DifferentialReport runDifferential(const DifferentialOptions &options, llvm::raw_ostream &log);

} // namespace graft::testing

#endif // GRAFT_TESTING_DIFFERENTIAL_H
