//===- tests/testing/DeviceDiffTest.cpp - Programs built for two targets ---===//
//
// `graft difftest --device cuda` needs a GPU (tools/gpu-check.sh runs it);
// here the same machinery runs with the CPU as the device: the generator's
// op exclusions, the program built twice and run on copies of the inputs,
// the comparison, and the ops a device cannot run.
//
//===----------------------------------------------------------------------===//

#include "tools/testing/Differential.h"
#include "tools/testing/ProgramGenerator.h"

#include "analysis/WellFormed.h"
#include "text/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

/// A device's gaps as opsWithoutKernel gives them (ops named as the
/// generator writes them), and no tensor conditions: like CUDA's at first.
GeneratorOptions withoutCudaGaps() {
  GeneratorOptions options;
  options.excludedOps = {
      "argmax", "argmin", "variance",  "take",         "concat",           "split",
      "tril",   "triu",   "index_put", "index_tensor", "scatter_elements", "nn.softmax"};
  options.tensorConditions = false;
  return options;
}

TEST(DeviceDiff, ExcludedOpsAreNeverWritten) {
  GeneratorOptions options = withoutCudaGaps();
  std::string restricted, free;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::string text = generateProgram(seed, options);
    auto file = parseText(text, "generated.py");
    ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError()) << "\n" << text;
    std::vector<Violation> v = verifyModule(*file->modules.front());
    EXPECT_TRUE(v.empty()) << "seed " << seed << ": " << v.front().message << "\n" << text;
    restricted += text;
    free += generateProgram(seed);
  }
  for (const std::string &op : options.excludedOps) {
    std::string call = "R." + op + "(";
    EXPECT_NE(free.find(call), std::string::npos) << call;
    EXPECT_EQ(restricted.find(call), std::string::npos) << call;
  }
  // Without tensor conditions an `if` tests a flag or a prim value only.
  EXPECT_NE(free.find("if c"), std::string::npos);
  EXPECT_EQ(restricted.find("if c"), std::string::npos);
  EXPECT_NE(restricted.find("if flag:"), std::string::npos);
  EXPECT_NE(restricted.find("if R.prim_value("), std::string::npos);
  // What is left still has the device's ops.
  for (const char *op : {"R.matmul(", "R.cumsum(", "R.sum(", "R.nn.log_softmax(", "R.sort("})
    EXPECT_NE(restricted.find(op), std::string::npos) << op;
}

TEST(DeviceDiff, NoExclusionsKeepTheSeedsPrograms) {
  // A default generator's programs are those of the figures in docs/testing.md.
  GeneratorOptions options;
  options.tensorConditions = true;
  EXPECT_EQ(generateProgram(11, options), generateProgram(11));
}

TEST(DeviceDiff, CpuAgainstCpuAgrees) {
  GeneratorOptions options = withoutCudaGaps();
  unsigned agreed = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    TwoWayResult r = runOnTarget(generateProgram(seed, options), seed, "cpu", FloatBounds{0, 0});
    EXPECT_TRUE(r.outcome == TwoWayResult::Agree || r.outcome == TwoWayResult::BothFailed)
        << "seed " << seed << ": " << r.message;
    agreed += r.outcome == TwoWayResult::Agree;
  }
  EXPECT_GT(agreed, 50u);
}

TEST(DeviceDiff, AProgramThatFailsToBuildIsAFailure) {
  // Not a device gap: an unknown target stops the build on one side only.
  TwoWayResult r = runOnTarget(generateProgram(1), 1, "tpu", FloatBounds{});
  EXPECT_EQ(r.outcome, TwoWayResult::Differ);
  EXPECT_NE(r.message.find("unknown target 'tpu'"), std::string::npos) << r.message;
}

TEST(DeviceDiff, RunnerComparesOnTheDevice) {
  DifferentialOptions options;
  options.count = 40;
  options.device = "cpu";
  options.generator = withoutCudaGaps();
  std::string log;
  llvm::raw_string_ostream os(log);
  DifferentialReport r = runDifferential(options, os);
  EXPECT_EQ(r.programs, 40u);
  EXPECT_EQ(r.passRuns, 0u); // passes do not depend on the device
  EXPECT_GE(r.compared + r.bothFailed, 40u);
  EXPECT_EQ(r.skipped, 0u);
  EXPECT_TRUE(r.failures.empty()) << log;
}

TEST(DeviceDiff, TheCpuRunsEveryOp) {
  auto none = opsWithoutKernel("cpu");
  ASSERT_TRUE(static_cast<bool>(none)) << llvm::toString(none.takeError());
  EXPECT_TRUE(none->empty()) << llvm::join(*none, ", ");
  auto bad = opsWithoutKernel("tpu");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()), "unknown target 'tpu' (supported: cpu, cuda)");
}

} // namespace
