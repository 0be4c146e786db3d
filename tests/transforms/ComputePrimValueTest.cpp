//===- tests/transforms/ComputePrimValueTest.cpp - compute-prim-value -------===//
//
// The generated host PrimFuncs keep the PrimExpr they compute (`computed`);
// these cases check the printed output, the generated nodes and the
// statistics (the Before/Expected files are in tests/passes/compute-prim-value).
// Cases: TVM's
// test_transform_compute_prim_value (assert condition, branch condition,
// pure function) plus sharing, naming and the unchanged cases.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

struct Result {
  std::string error;
  std::unique_ptr<IRModule> module;
  std::map<std::string, int64_t> stats;
};

Result runPass(const std::string &text) {
  Result r;
  auto parsed = parseText(text, "cpv.py");
  if (!parsed) {
    r.error = llvm::toString(parsed.takeError());
    return r;
  }
  r.module = std::move(parsed->modules.front());
  auto pipeline = parsePipeline("compute-prim-value");
  if (!pipeline) {
    r.error = llvm::toString(pipeline.takeError());
    return r;
  }
  PassManagerOptions options;
  options.checkChangeReport = true;
  PassManager pm(options);
  PassContext ctx;
  if (llvm::Error err = pm.run(*r.module, *pipeline, ctx))
    r.error = llvm::toString(std::move(err));
  r.stats = ctx.stats();
  return r;
}

/// The printed text of one function of the module.
std::string printed(const IRModule &module, llvm::StringRef name) {
  std::string text = printModule(module);
  size_t at = text.find(("def " + name + "(").str());
  if (at == std::string::npos)
    return "<no function " + name.str() + ">";
  size_t start = text.rfind("\n    @", at);
  size_t end = text.find("\n\n", at);
  return text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
}

const char *kHeader = "from tvm.script import ir as I, relax as R, tir as T\n\n"
                      "@I.ir_module\nclass Module:\n";

TEST(ComputePrimValue, AssertCondition) {
  Result r = runPass(std::string(kHeader) + R"(
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        _ = R.assert_op(R.prim_value(N % 16 == 0))
        return A
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(printed(*r.module, "compute_symbolic_expr"),
            "    @T.prim_func(private=True)\n"
            "    def compute_symbolic_expr(N: T.int64) -> T.bool:\n"
            "        T.func_attr({\"tir.is_host_func\": True})\n"
            "        T.ret(N % T.int64(16) == T.int64(0))");
  EXPECT_NE(printed(*r.module, "main")
                .find("gv: R.Prim(\"bool\") = cls.compute_symbolic_expr(R.prim_value(N))\n"
                      "        R.assert_op(gv, format=R.str(\"\"))"),
            std::string::npos)
      << printed(*r.module, "main");
  const PrimFuncNode *pf = r.module->lookup("compute_symbolic_expr")->asPrimFunc();
  ASSERT_NE(pf, nullptr);
  EXPECT_TRUE(pf->isPrivate);
  EXPECT_TRUE(pf->retType.isBool());
  ASSERT_EQ(pf->params.size(), 1u);
  EXPECT_EQ(pf->params[0].kind, PrimParam::Kind::Scalar);
  EXPECT_EQ(pf->params[0].dtype, DataType::int64());
  EXPECT_EQ(r.stats["compute-prim-value.values"], 1);
  EXPECT_EQ(r.stats["compute-prim-value.functions"], 1);
}

TEST(ComputePrimValue, BranchConditionGetsItsOwnBinding) {
  Result r = runPass(std::string(kHeader) + R"(
    @R.function(pure=False)
    def main(A: R.Tensor(["N"], "float32")):
        N = T.int64()
        if R.prim_value(N % 16 == 0):
            out = R.call_packed("fast_impl", A, sinfo_args=R.Tensor((N,), "float32"))
        else:
            out = R.call_packed("slow_impl", A, sinfo_args=R.Tensor((N,), "float32"))
        return out
)");
  ASSERT_EQ(r.error, "");
  std::string main = printed(*r.module, "main");
  EXPECT_NE(main.find("gv: R.Prim(\"bool\") = cls.compute_symbolic_expr(R.prim_value(N))\n"
                      "        if gv:"),
            std::string::npos)
      << main;
}

TEST(ComputePrimValue, PureFunctionTwoVarsInFirstOccurrenceOrder) {
  Result r = runPass(std::string(kHeader) + R"(
    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim("int64"):
        N = T.int64()
        M = T.int64()
        out = R.prim_value(M * N + N)
        return out
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(printed(*r.module, "compute_symbolic_expr"),
            "    @T.prim_func(private=True)\n"
            "    def compute_symbolic_expr(M: T.int64, N: T.int64) -> T.int64:\n"
            "        T.func_attr({\"tir.is_host_func\": True})\n"
            "        T.ret(M * N + N)");
  EXPECT_NE(printed(*r.module, "main")
                .find("cls.compute_symbolic_expr(R.prim_value(M), R.prim_value(N))"),
            std::string::npos)
      << printed(*r.module, "main");
}

TEST(ComputePrimValue, EqualExpressionsShareOneFunctionOthersGetSuffixes) {
  Result r = runPass(std::string(kHeader) + R"(
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        _ = R.assert_op(R.prim_value(N % 16 == 0))
        _1 = R.assert_op(R.prim_value(N % 16 == 0))
        _2 = R.assert_op(R.prim_value(N < 1024))
        return A

    @R.function(pure=False)
    def other(B: R.Tensor(["K"])):
        K = T.int64()
        _ = R.assert_op(R.prim_value(K % 16 == 0))
        return B
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.stats["compute-prim-value.values"], 4);
  EXPECT_EQ(r.stats["compute-prim-value.functions"], 2);
  EXPECT_NE(r.module->lookup("compute_symbolic_expr"), nullptr);
  EXPECT_NE(r.module->lookup("compute_symbolic_expr1"), nullptr);
  EXPECT_EQ(r.module->lookup("compute_symbolic_expr2"), nullptr);
  EXPECT_NE(printed(*r.module, "other").find("cls.compute_symbolic_expr(R.prim_value(K))"),
            std::string::npos)
      << printed(*r.module, "other");
}

TEST(ComputePrimValue, IntegersAndBareVarsStay) {
  Result r = runPass(std::string(kHeader) + R"(
    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        _ = R.call_packed("f", R.prim_value(N), R.prim_value(3), sinfo_args=R.Object)
        return A
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.module->lookup("compute_symbolic_expr"), nullptr);
  EXPECT_EQ(r.stats.count("compute-prim-value.values"), 0u);
}

TEST(ComputePrimValue, NameTakenInTheModuleGetsASuffix) {
  Result r = runPass(std::string(kHeader) + R"(
    @T.prim_func(private=True)
    def compute_symbolic_expr(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)

    @R.function(pure=False)
    def main(A: R.Tensor(["N"])):
        N = T.int64()
        _ = R.assert_op(R.prim_value(N > 0))
        return A
)");
  ASSERT_EQ(r.error, "");
  EXPECT_NE(printed(*r.module, "main").find("cls.compute_symbolic_expr1(R.prim_value(N))"),
            std::string::npos)
      << printed(*r.module, "main");
}

} // namespace
