//===- tools/graft/RobustCommands.cpp - graft gen ---------------------------===//
//
// The robustness commands (docs/testing.md): `graft gen` writes a random
// well-formed program (testing/ProgramGenerator.h); `graft difftest` runs
// generated programs through every pass and pipeline and compares build-cpu
// with the reference interpreter (testing/Differential.h).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "testing/Differential.h"

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
cl::opt<bool> diffNoRun("no-run", cl::desc("Skip the VM against interpreter comparison"),
                        cl::sub(diffCmd));
cl::opt<unsigned> diffUlps("max-ulps", cl::desc("Float tolerance in units in the last place"),
                           cl::init(4), cl::sub(diffCmd));
cl::opt<std::string> diffKeep("keep", cl::desc("Write each failing program here"),
                              cl::value_desc("DIR"), cl::sub(diffCmd));

cl::opt<bool> diffVerbose("verbose",
                          cl::desc("Also log runs where both sides fail and passes that refuse"),
                          cl::sub(diffCmd));

int runDiffTest() {
  testing::DifferentialOptions options;
  options.firstSeed = diffFirst;
  options.count = diffCount;
  options.generator.size = diffSize;
  options.passes = !diffNoPasses;
  options.run = !diffNoRun;
  options.maxUlps = diffUlps;
  options.keepDir = diffKeep;
  options.verbose = diffVerbose;
  testing::DifferentialReport r = testing::runDifferential(options, llvm::errs());
  llvm::outs() << r.programs << " programs: " << r.passRuns << " pass/pipeline runs well-formed, "
               << r.preconditions << " refused by a precondition; " << r.compared
               << " runs compared, " << r.bothFailed << " failed on both sides, " << r.unsupported
               << " not run by the interpreter; " << r.failures.size() << " failures\n";
  return r.failures.empty() ? kSuccess : kNegative;
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
  return -1;
}
