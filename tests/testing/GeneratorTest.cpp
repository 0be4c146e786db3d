//===- tests/testing/GeneratorTest.cpp - The random program generator ------===//
//
// Programs are reproducible from their seed, every one verifies, and the
// generated programs together use every construct the generator promises
// (docs/testing.md). The differential run itself is the difftest-* ctests.
//
//===----------------------------------------------------------------------===//

#include "tools/testing/Differential.h"
#include "tools/testing/ProgramGenerator.h"

#include "analysis/WellFormed.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

TEST(Generator, SameSeedSameText) {
  EXPECT_EQ(generateProgram(7), generateProgram(7));
  EXPECT_NE(generateProgram(7), generateProgram(8));
  GeneratorOptions big;
  big.size = 40;
  EXPECT_EQ(generateProgram(7, big), generateProgram(7, big));
  EXPECT_NE(generateProgram(7, big), generateProgram(7));
}

TEST(Generator, VerifierAcceptsEveryProgram) {
  for (unsigned size : {4u, 12u, 40u}) {
    GeneratorOptions options;
    options.size = size;
    for (uint64_t seed = 0; seed < 300; ++seed) {
      std::string text = generateProgram(seed, options);
      auto file = parseText(text, "generated.py");
      ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError()) << "\n" << text;
      ASSERT_EQ(file->modules.size(), 1u);
      std::vector<Violation> v = verifyModule(*file->modules.front());
      EXPECT_TRUE(v.empty()) << "seed " << seed << " size " << size << ": " << v.front().message
                             << "\n"
                             << text;
    }
  }
}

TEST(Generator, CoversTheConstructs) {
  std::string all;
  for (uint64_t seed = 0; seed < 200; ++seed)
    all += generateProgram(seed);
  for (const char *construct :
       {"with R.dataflow():", "R.output(",    "R.match_cast(",   "= T.int64()",
        "if R.prim_value(",   "if flag:",     "else:",           "R.index_tensor(",
        "R.index_put(",       "R.assert_op(", "(pure=False)",    "= Module.f",
        "R.where(",           "R.astype(",    "R.matmul(",       "R.nn.softmax(",
        "R.cumsum(",          "R.argmax(",    "R.permute_dims(", "R.expand_dims(",
        "R.squeeze(",         "R.Tuple(",     "\"n\"",           "\"float64\"",
        "\"int32\"",          "\"bool\"",     "R.const(",        "R.logical_and(",
        "R.left_shift("}) {
    EXPECT_NE(all.find(construct), std::string::npos) << construct;
  }
  for (const char *construct :
       {"R.sort(", "R.argsort(", "R.tril(", "R.full_like(", "R.concat(", "R.split(", "R.take(",
        "R.strided_slice(", "R.nn.rms_norm(", "R.nn.layer_norm(", "R.scatter_elements(",
        "R.reshape(", "R.flatten(", "R.shape_of(", "R.Shape(ndim=", "R.layout_transform(",
        "pad_value=0.5", "R.nn.selu(", "R.log_add_exp("})
    EXPECT_NE(all.find(construct), std::string::npos) << construct;
  // Tuples and their items.
  EXPECT_NE(all.find("t"), std::string::npos);
  EXPECT_NE(all.find("[1]"), std::string::npos);
}

TEST(Differential, SmallRunIsClean) {
  registerAllPasses();
  DifferentialOptions options;
  options.count = 20;
  std::string log;
  llvm::raw_string_ostream os(log);
  DifferentialReport r = runDifferential(options, os);
  EXPECT_EQ(r.programs, 20u);
  EXPECT_TRUE(r.failures.empty()) << os.str();
  EXPECT_EQ(r.compared + r.bothFailed + r.unsupported, 20u);
  EXPECT_GT(r.passRuns, 20u * 10);
}

} // namespace
