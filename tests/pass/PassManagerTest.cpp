//===- tests/pass/PassManagerTest.cpp - All or nothing ----------------------===//
//
// A failing pass leaves the module exactly as the PassManager was given it,
// whether the failure comes from the second function of a function pass,
// from a module pass that had already changed the module, or from a later
// pass of the pipeline.
//
//===----------------------------------------------------------------------===//

#include "PassTestUtil.h"

#include "ir/StructuralEqual.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

/// Marks every function; fails on the second one when `fail-at` is 2.
class MarkFunctionsPass : public FunctionPass {
public:
  MarkFunctionsPass() : FunctionPass("test-pm-mark") {}

  PassOption<int64_t> failAt{this, "fail-at", "the 1-based function to fail on (0: none)", 0};
  PassStatistic marked{this, "marked", "functions marked"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    if (++seen_ == failAt)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "failing on function '" + functionName().str() + "'");
    ++marked;
    return markFunction(*fn, "test.marked");
  }

private:
  int64_t seen_ = 0;
};

/// Removes `helper`, then fails.
class RemoveThenFailPass : public ModulePass {
public:
  RemoveThenFailPass() : ModulePass("test-pm-remove-then-fail") {}

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &) override {
    module.remove("helper");
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "failing after a change");
  }
};

void registerTestPasses() {
  static bool done = [] {
    registerPass<MarkFunctionsPass>(PassInfo());
    registerPass<RemoveThenFailPass>(PassInfo());
    return true;
  }();
  (void)done;
}

/// Runs `pipelineText` on `module`; returns the error text, "" on success.
std::string runPipeline(IRModule &module, llvm::StringRef pipelineText, PassContext &ctx) {
  registerTestPasses();
  llvm::Expected<Pipeline> pipeline = parsePipeline(pipelineText);
  if (!pipeline)
    return llvm::toString(pipeline.takeError());
  PassManager pm{PassManagerOptions()};
  llvm::Error err = pm.run(module, *pipeline, ctx);
  return err ? llvm::toString(std::move(err)) : "";
}

TEST(PassManager, PassThatSucceedsChangesEveryFunction) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  auto input = parseModule(kTwoFunctions);
  PassContext ctx;
  EXPECT_EQ(runPipeline(*module, "test-pm-mark", ctx), "");
  EXPECT_FALSE(structuralEqual(*module, *input));
  EXPECT_NE(module->lookup("helper")->asFunction()->attr("test.marked"), nullptr);
  EXPECT_EQ(ctx.stats().at("test-pm-mark.marked"), 2);
}

TEST(PassManager, FunctionPassFailingOnSecondFunctionLeavesModuleAsGiven) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  const Node *mainBefore = module->lookup("main")->func.get();
  auto input = parseModule(kTwoFunctions);
  PassContext ctx;
  EXPECT_EQ(runPipeline(*module, "test-pm-mark{fail-at=2}", ctx), "failing on function 'helper'");
  llvm::Optional<Mismatch> mismatch = firstMismatch(*module, *input);
  EXPECT_FALSE(mismatch) << mismatch->report();
  // The first function, rewritten before the failure, is the original node.
  EXPECT_EQ(module->lookup("main")->func.get(), mainBefore);
  EXPECT_EQ(module->lookup("main")->asFunction()->attr("test.marked"), nullptr);
  EXPECT_TRUE(ctx.stats().empty());
}

TEST(PassManager, FunctionPassAloneCommitsNothingOnFailure) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  auto input = parseModule(kTwoFunctions);
  MarkFunctionsPass pass;
  pass.failAt = 2;
  PassContext ctx;
  llvm::Expected<bool> changed = pass.run(*module, ctx);
  ASSERT_FALSE(changed);
  EXPECT_EQ(llvm::toString(changed.takeError()), "failing on function 'helper'");
  EXPECT_TRUE(structuralEqual(*module, *input));
}

TEST(PassManager, ModulePassFailingAfterAChangeLeavesModuleAsGiven) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  auto input = parseModule(kTwoFunctions);
  PassContext ctx;
  EXPECT_EQ(runPipeline(*module, "test-pm-remove-then-fail", ctx), "failing after a change");
  ASSERT_NE(module->lookup("helper"), nullptr);
  EXPECT_TRUE(structuralEqual(*module, *input));
}

TEST(PassManager, LaterFailureUndoesEarlierPasses) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  auto input = parseModule(kTwoFunctions);
  PassContext ctx;
  EXPECT_EQ(runPipeline(*module, "test-pm-mark,test-pm-mark{fail-at=1}", ctx),
            "failing on function 'main'");
  EXPECT_EQ(module->lookup("main")->asFunction()->attr("test.marked"), nullptr);
  EXPECT_TRUE(structuralEqual(*module, *input));
}

} // namespace
