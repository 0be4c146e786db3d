//===- tools/graft/RobustCommands.cpp - graft gen ---------------------------===//
//
// The robustness commands (docs/testing.md): `graft gen` writes a random
// well-formed program (tools/testing/ProgramGenerator.h); `graft difftest` runs
// generated programs through every pass and pipeline and compares build-cpu
// with the reference interpreter, or build-cuda on the GPU with build-cpu
// (`--device cuda`) (tools/testing/Differential.h); `graft reduce`
// shrinks a failing module to a pass-test file (tools/testing/Reducer.h).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "tools/testing/Differential.h"
#include "tools/testing/Reducer.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;
namespace cl = llvm::cl;

namespace {

cl::SubCommand genCmd("gen", "Write a random well-formed program (same seed, same text)");
cl::opt<uint64_t> genSeed("seed", cl::desc("Seed of the program"), cl::init(0), cl::sub(genCmd));
cl::opt<unsigned> genSize("size", cl::desc("About this many bindings in main"), cl::init(12),
                          cl::sub(genCmd));

cl::SubCommand diffCmd("difftest",
                       "Generated programs through every pass and pipeline, and build-cpu "
                       "against the reference interpreter");
cl::opt<uint64_t> diffFirst("first-seed", cl::desc("First seed"), cl::init(0), cl::sub(diffCmd));
cl::opt<uint64_t> diffCount("count", cl::desc("Number of programs"), cl::init(100),
                            cl::sub(diffCmd));
cl::opt<unsigned> diffSize("size", cl::desc("About this many bindings in main"), cl::init(12),
                           cl::sub(diffCmd));
cl::opt<bool> diffNoPasses("no-passes", cl::desc("Skip the passes and pipelines"),
                           cl::sub(diffCmd));
cl::opt<bool> diffLowered("lowered",
                          cl::desc("Also run every pass after fuse-elementwise,legalize-ops"),
                          cl::sub(diffCmd));
cl::opt<bool> diffNoRun("no-run", cl::desc("Skip the VM against interpreter comparison"),
                        cl::sub(diffCmd));
cl::opt<unsigned> diffUlps("max-ulps", cl::desc("Float tolerance in units in the last place"),
                           cl::init(4), cl::sub(diffCmd));
cl::opt<std::string> diffDevice("device",
                                cl::desc("Build each program for this target too, run it on its "
                                         "device and compare with build-cpu on the CPU (cuda)"),
                                cl::value_desc("DEVICE"), cl::sub(diffCmd));
cl::opt<double> diffEpsTol("eps-tol",
                           cl::desc("With --device: floats also agree within K * eps(dtype) * "
                                    "max(1, |a|, |b|) (default 1024)"),
                           cl::value_desc("K"), cl::init(1024), cl::sub(diffCmd));
cl::opt<std::string> diffKeep("keep", cl::desc("Write each failing program here"),
                              cl::value_desc("DIR"), cl::sub(diffCmd));

cl::opt<bool> diffVerbose("verbose",
                          cl::desc("Also log runs where both sides fail and passes that refuse"),
                          cl::sub(diffCmd));

void printSummary(const testing::DifferentialReport &r) {
  llvm::outs() << r.programs << " programs: " << r.passRuns << " pass/pipeline runs well-formed ("
               << r.roundTrips << " printed and parsed back equal), " << r.preconditions
               << " refused by a precondition; " << r.compared << " runs compared, " << r.bothFailed
               << " failed on both sides, " << r.unsupported << " not run by the interpreter; "
               << r.failures.size() << " failures\n";
}

/// --device: what was compared, and why programs were skipped (most
/// frequent reasons first).
void printDeviceSummary(const testing::DifferentialReport &r, const std::string &device) {
  llvm::outs() << r.programs << " programs on " << device << " against the CPU: " << r.compared
               << " compared, " << r.bothFailed << " failed on both, " << r.skipped
               << " skipped (a kernel " << device << " lacks or a limit it states); "
               << r.failures.size() << " disagreements\n";
  std::vector<std::pair<uint64_t, std::string>> reasons;
  for (const auto &[reason, n] : r.skipReasons)
    reasons.push_back({n, reason});
  std::sort(reasons.rbegin(), reasons.rend());
  for (const auto &[n, reason] : reasons)
    llvm::outs() << "  skipped " << n << ": " << reason << "\n";
}

int runDiffTest() {
  testing::DifferentialOptions options;
  options.firstSeed = diffFirst;
  options.count = diffCount;
  options.generator.size = diffSize;
  options.passes = !diffNoPasses;
  options.lowered = diffLowered;
  options.run = !diffNoRun;
  options.maxUlps = diffUlps;
  options.keepDir = diffKeep;
  options.verbose = diffVerbose;
  if (!diffDevice.empty()) {
    if (diffDevice != "cuda") {
      llvm::errs() << "graft difftest: error: unknown device '" << diffDevice
                   << "' (devices: cuda)\n";
      return kBadInput;
    }
    auto excluded = testing::opsWithoutKernel(diffDevice);
    if (!excluded) {
      llvm::errs() << "graft difftest: error: " << llvm::toString(excluded.takeError()) << "\n";
      return kBadInput;
    }
    options.device = diffDevice;
    options.epsTol = diffEpsTol;
    if (diffUlps.getNumOccurrences() == 0)
      options.maxUlps = 64;
    options.generator.excludedOps = std::move(*excluded);
    options.generator.tensorConditions = false;
  }
  testing::DifferentialReport r = testing::runDifferential(options, llvm::errs());
  if (options.device.empty())
    printSummary(r);
  else
    printDeviceSummary(r, options.device);
  return r.failures.empty() ? kSuccess : kNegative;
}

cl::SubCommand reduceCmd("reduce", "Shrink a module on which a pipeline fails (or build and "
                                   "interpreter disagree) to a pass-test file");
cl::opt<std::string> reduceFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(reduceCmd));
cl::opt<std::string> reducePipeline("p", cl::desc("Pipeline that fails"),
                                    cl::value_desc("PIPELINE"), cl::sub(reduceCmd));
cl::opt<std::string> reduceMatch("match", cl::desc("Text the failure's message contains"),
                                 cl::value_desc("TEXT"), cl::sub(reduceCmd));
cl::opt<bool> reduceDifferential("differential",
                                 cl::desc("Keep build-cpu and the interpreter disagreeing"),
                                 cl::sub(reduceCmd));
cl::opt<uint64_t> reduceSeed("input-seed", cl::desc("Seed of the random inputs (--differential)"),
                             cl::init(0), cl::sub(reduceCmd));
cl::opt<std::string> reduceOut("o", cl::desc("Write the reduced pass-test file here"),
                               cl::value_desc("OUT"), cl::sub(reduceCmd));

int runReduce() {
  if (!reduceDifferential && (reducePipeline.empty() || reduceMatch.empty())) {
    llvm::errs() << "graft reduce: error: give -p PIPELINE and --match TEXT, or --differential\n";
    return kBadInput;
  }
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(reduceFile);
  if (!buffer) {
    llvm::errs() << "graft reduce: error: cannot read " << reduceFile << ": "
                 << buffer.getError().message() << "\n";
    return kBadInput;
  }
  testing::ReduceOptions options;
  options.pipeline = reducePipeline;
  options.match = reduceMatch;
  options.differential = reduceDifferential;
  options.inputSeed = reduceSeed;
  auto result = testing::reduceModule((*buffer)->getBuffer().str(), options);
  if (!result) {
    llvm::errs() << "graft reduce: error: " << llvm::toString(result.takeError()) << "\n";
    return kBadInput;
  }
  llvm::errs() << "graft reduce: " << result->linesBefore << " -> " << result->linesAfter
               << " lines after " << result->tries << " candidates\n";
  if (reduceOut.empty() || reduceOut == "-") {
    llvm::outs() << result->text;
    return kSuccess;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(reduceOut, ec);
  if (ec) {
    llvm::errs() << "graft reduce: error: cannot write " << reduceOut << ": " << ec.message()
                 << "\n";
    return kBadInput;
  }
  os << result->text;
  return kSuccess;
}

} // namespace

int driver::runRobustnessCommand() {
  if (genCmd) {
    testing::GeneratorOptions options;
    options.size = genSize;
    llvm::outs() << testing::generateProgram(genSeed, options);
    return kSuccess;
  }
  if (diffCmd)
    return runDiffTest();
  if (reduceCmd)
    return runReduce();
  return -1;
}
