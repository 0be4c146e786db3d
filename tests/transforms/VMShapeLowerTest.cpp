//===- tests/transforms/VMShapeLowerTest.cpp - vm-shape-lower edge cases ----===//
//
// What pass-test files cannot express: input the verifier rejects (a
// composite shape whose var has no slot of its own, which v0.23 refuses), the
// PrimFunc printer's TIR spelling of a `computed` value, and the statistics.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

/// Runs `pipeline` on the first module of `text` without verify-each;
/// returns the error text ("" on success).
std::string runPipeline(const std::string &text, const std::string &pipelineText,
                        PassContext &ctx) {
  auto parsed = parseText(text, "input.py");
  if (!parsed)
    return llvm::toString(parsed.takeError());
  auto pipeline = parsePipeline(pipelineText);
  if (!pipeline)
    return llvm::toString(pipeline.takeError());
  PassManagerOptions options;
  options.verifyEach = false;
  PassManager pm(options);
  if (llvm::Error err = pm.run(*parsed->modules.front(), *pipeline, ctx))
    return llvm::toString(std::move(err));
  return "";
}

TEST(VMShapeLower, CompositeWithoutVarSlotIsAnError) {
  PassContext ctx;
  std::string err = runPipeline(R"(
@I.ir_module(check_well_formed=False)
class Before:
    @R.function(check_well_formed=False)
    def main(x: R.Tensor(["n + 1"], "float32")):
        R.func_attr({"relax.force_pure": True})
        return x
)",
                                "vm-shape-lower", ctx);
  EXPECT_EQ(err, "vm-shape-lower: Var n is not defined in the function 'main' but is "
                 "referenced by n + 1");
}

TEST(VMShapeLower, StatisticsCountChecksMatchesAndShapeFuncs) {
  PassContext ctx;
  std::string err = runPipeline(R"(
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(["n", "n + 2"], "float32")):
        R.func_attr({"relax.force_pure": True})
        return x
)",
                                "vm-shape-lower", ctx);
  ASSERT_EQ(err, "");
  EXPECT_EQ(ctx.stats().at("vm-shape-lower.checks"), 1);
  // Stores n, no-op for n + 2; then the re-match after shape_func.
  EXPECT_EQ(ctx.stats().at("vm-shape-lower.matches"), 2);
  EXPECT_EQ(ctx.stats().at("vm-shape-lower.shape-funcs"), 1);
}

TEST(VMShapeLower, ComputedPrimFuncPrintsTirLiterals) {
  auto n = make<TirVarNode>("n", DataType::int64());
  auto pf = make<PrimFuncNode>();
  auto &f = const_cast<PrimFuncNode &>(*pf);
  f.params.push_back({"n", PrimParam::Kind::Scalar, {}, DataType::int64()});
  f.retType = DataType::int64();
  f.isPrivate = true;
  f.computed = primBinary(PrimOp::Add, n, intImm(1));
  IRModule module;
  module.add(make<GlobalVarNode>("compute_symbolic_expr"), pf);
  PrintOptions opts;
  opts.header = false;
  std::string text = printModule(module, opts);
  EXPECT_NE(text.find("    def compute_symbolic_expr(n: T.int64) -> T.int64:\n"
                      "        T.ret(n + T.int64(1))\n"),
            std::string::npos)
      << text;
}

} // namespace
