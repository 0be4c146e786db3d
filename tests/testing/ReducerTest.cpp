//===- tests/testing/ReducerTest.cpp - graft reduce -----------------------===//

#include "tools/testing/Reducer.h"
#include "tools/testing/ProgramGenerator.h"

#include "pass/PassTest.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

size_t bindingLines(const std::string &text) {
  size_t n = 0;
  llvm::SmallVector<llvm::StringRef, 64> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef l : lines)
    n += l.contains(" = ") && !l.contains("T.int64()");
  return n;
}

TEST(Reducer, ShrinksAPipelineFailureToAPassTest) {
  registerAllPasses();
  GeneratorOptions gen;
  gen.size = 25;
  std::string program = generateProgram(3, gen);
  ReduceOptions options;
  options.pipeline = "test-drop-binding";
  options.match = "is not well-formed";
  auto r = reduceModule(program, options);
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  EXPECT_GT(bindingLines(program), 20u);
  EXPECT_LE(bindingLines(r->text), 2u) << r->text; // one binding and the dropped one's use
  EXPECT_LT(r->linesAfter, r->linesBefore);
  EXPECT_NE(r->text.find("# PIPELINE: test-drop-binding\n# EXPECT-ERROR: is not well-formed\n"),
            std::string::npos);
  // The output is a pass-test file that passes: the pipeline still fails so.
  auto file = parseText(r->text, "reduced.py");
  ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError());
  EXPECT_EQ(runPassTest(*file), "");
}

TEST(Reducer, RefusesAnInputThatDoesNotFail) {
  registerAllPasses();
  ReduceOptions options;
  options.pipeline = "dead-code-elimination";
  options.match = "anything";
  auto r = reduceModule(generateProgram(1), options);
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "the pipeline does not fail on the input with a message containing 'anything'");

  options.differential = true;
  r = reduceModule(generateProgram(1), options);
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "build-cpu and the interpreter agree on the input: nothing to reduce");

  // A module without main is no disagreement, however small.
  r = reduceModule("from tvm.script import ir as I, relax as R\n\n@I.ir_module\nclass "
                   "Module:\n    @R.function\n    def f(x: R.Tensor((2,), \"float32\")) -> "
                   "R.Tensor((2,), \"float32\"):\n        return x\n",
                   options);
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "build-cpu and the interpreter agree on the input: nothing to reduce");

  r = reduceModule("not a module", options);
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(llvm::toString(r.takeError()), "the input must hold one well-formed module");
}

} // namespace
