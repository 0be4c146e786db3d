//===- tests/transforms/FuseMaskedCopyScaleTest.cpp - Long mask histories ---===//
//
// Masks built by two separate 10,000-op chains (with diamonds) must compare
// equal without recursion and without revisiting shared pairs, and masks
// whose chains differ only at their root, or start from random draws, must
// not. Run through the pass manager with verify-each. Speed is measured by
// bench/fuse_masked_copy.cpp, never here.
//
//===----------------------------------------------------------------------===//

#include "bench/MaskChainGen.h"
#include "ir/Expr.h"
#include "ir/Op.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

struct Outcome {
  std::string error;
  int64_t rewrites = 0;
  unsigned indexCalls = 0, putCalls = 0, whereCalls = 0;
};

unsigned countCalls(const FunctionNode &fn, llvm::StringRef opName) {
  unsigned n = 0;
  for (const BindingBlock &block : fn.body->blocks)
    for (const Binding &b : block->bindings)
      if (const auto *call = llvm::dyn_cast<CallNode>(b->value.get()))
        if (const OpInfo *info = call->opInfo())
          n += info->name == opName;
  return n;
}

Outcome runFuse(const std::string &text) {
  Outcome o;
  auto parsed = parseText(text, "chain.py");
  if (!parsed) {
    o.error = llvm::toString(parsed.takeError());
    return o;
  }
  IRModule &module = *parsed->modules.front();
  auto pipeline = parsePipeline("fuse-masked-copy");
  if (!pipeline) {
    o.error = llvm::toString(pipeline.takeError());
    return o;
  }
  PassManagerOptions options;
  options.checkChangeReport = true;
  PassManager pm(options);
  PassContext ctx;
  if (llvm::Error err = pm.run(module, *pipeline, ctx)) {
    o.error = llvm::toString(std::move(err));
    return o;
  }
  auto it = ctx.stats().find("fuse-masked-copy.rewrites");
  o.rewrites = it == ctx.stats().end() ? 0 : it->second;
  const FunctionNode *fn = module.lookup("main")->asFunction();
  o.indexCalls = countCalls(*fn, "relax.index_tensor");
  o.putCalls = countCalls(*fn, "relax.index_put");
  o.whereCalls = countCalls(*fn, "relax.where");
  return o;
}

TEST(FuseMaskedCopyScale, TenThousandOpChainsCompareEqual) {
  Outcome o = runFuse(bench::maskChainModule(10000));
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.rewrites, 1);
  EXPECT_EQ(o.whereCalls, 1u);
  EXPECT_EQ(o.putCalls, 0u);
  EXPECT_EQ(o.indexCalls, 0u);
}

TEST(FuseMaskedCopyScale, ChainsDifferingAtTheRootAreDifferentMasks) {
  // The only difference is 10,000 ops away from the masks.
  Outcome o = runFuse(bench::maskChainModule(10000, bench::ChainVariant::DifferentRoot));
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.rewrites, 0);
  EXPECT_EQ(o.whereCalls, 0u);
  EXPECT_EQ(o.putCalls, 1u);
  EXPECT_EQ(o.indexCalls, 1u);
}

TEST(FuseMaskedCopyScale, ChainsFromTwoRandomDrawsAreDifferentMasks) {
  Outcome o = runFuse(bench::maskChainModule(10000, bench::ChainVariant::RandomRoot));
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.rewrites, 0);
  EXPECT_EQ(o.putCalls, 1u);
}

TEST(FuseMaskedCopyScale, ManyCopiesAreAllRewritten) {
  Outcome o = runFuse(bench::manyCopiesModule(2000));
  ASSERT_EQ(o.error, "");
  EXPECT_EQ(o.rewrites, 2000);
  EXPECT_EQ(o.whereCalls, 2000u);
  EXPECT_EQ(o.putCalls, 0u);
  EXPECT_EQ(o.indexCalls, 0u);
}

} // namespace
