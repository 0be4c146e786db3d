//===- tests/pass/AnalysisManagerTest.cpp - Cached analyses -----------------===//
//
// An analysis is computed once per function across passes that preserve it,
// and again after a pass that changes the function without preserving it.
// The manager's computation counter is the witness.
//
//===----------------------------------------------------------------------===//

#include "PassTestUtil.h"

#include "analysis/Analyses.h"
#include "pass/AnalysisManager.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

/// Reads the use-def analysis of every function, then marks the function
/// (a change); preserves use-def when `Preserve`.
template <bool Preserve> class UseDefReaderPass : public FunctionPass {
public:
  UseDefReaderPass() : FunctionPass(Preserve ? "test-am-keep" : "test-am-drop") {
    if (Preserve)
      markPreserved<UseDefAnalysis>();
  }

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    const UseDefInfo &info = getAnalysis<UseDefAnalysis>();
    // The result describes this function: its params are defined there.
    for (const Var &p : fn->params)
      if (!info.lookup(p.get()) || !info.lookup(p.get())->defined)
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "stale use-def");
    return markFunction(*fn, name());
  }
};

/// Reads use-def and changes nothing.
class UseDefOnlyReaderPass : public FunctionPass {
public:
  UseDefOnlyReaderPass() : FunctionPass("test-am-read") {}
  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    (void)getAnalysis<UseDefAnalysis>();
    return fn;
  }
};

void registerTestPasses() {
  static bool done = [] {
    registerPass<UseDefReaderPass<true>>(PassInfo());
    registerPass<UseDefReaderPass<false>>(PassInfo());
    registerPass<UseDefOnlyReaderPass>(PassInfo());
    return true;
  }();
  (void)done;
}

/// Use-def computations while `pipelineText` runs on the two-function module.
unsigned useDefComputations(llvm::StringRef pipelineText) {
  registerTestPasses();
  auto module = parseModule(kTwoFunctions);
  if (!module)
    return ~0u;
  llvm::Expected<Pipeline> pipeline = parsePipeline(pipelineText);
  if (!pipeline) {
    ADD_FAILURE() << llvm::toString(pipeline.takeError());
    return ~0u;
  }
  PassContext ctx;
  PassManager pm{PassManagerOptions()};
  if (llvm::Error err = pm.run(*module, *pipeline, ctx)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return ~0u;
  }
  return pm.analysisManager().computations<UseDefAnalysis>();
}

TEST(AnalysisManager, ComputedOnceAcrossPassesThatPreserveIt) {
  // Two functions, one computation each, although both passes change both.
  EXPECT_EQ(useDefComputations("test-am-keep,test-am-keep"), 2u);
}

TEST(AnalysisManager, RecomputedAfterAPassThatDoesNotPreserveIt) {
  // keep computes (2), keep reuses, drop reuses then invalidates, keep
  // computes again (2).
  EXPECT_EQ(useDefComputations("test-am-keep,test-am-keep,test-am-drop,test-am-keep"), 4u);
}

TEST(AnalysisManager, UnchangedModuleKeepsEverything) {
  // A pass that reports no change invalidates nothing, preserved or not.
  EXPECT_EQ(useDefComputations("test-am-read,test-am-read,test-am-read"), 2u);
}

TEST(AnalysisManager, NodeIdentityGuardsAgainstChangesBehindItsBack) {
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  const FunctionNode *fn = module->lookup("main")->asFunction();
  AnalysisManager am;
  const UseDefInfo *first = &am.get<UseDefAnalysis>("main", *fn);
  EXPECT_EQ(&am.get<UseDefAnalysis>("main", *fn), first);
  EXPECT_EQ(am.computations<UseDefAnalysis>(), 1u);
  // Same name, another node: computed afresh, never the cached result.
  Function changed = markFunction(*fn, "test.other");
  const UseDefInfo &second = am.get<UseDefAnalysis>("main", *changed);
  EXPECT_EQ(am.computations<UseDefAnalysis>(), 2u);
  EXPECT_NE(second.lookup(changed->params[0].get()), nullptr);
  // Other analyses are counted apart.
  (void)am.get<LivenessAnalysis>("main", *fn);
  EXPECT_EQ(am.computations<LivenessAnalysis>(), 1u);
  EXPECT_EQ(am.computations<UseDefAnalysis>(), 2u);
}

} // namespace
