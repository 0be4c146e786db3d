//===- tests/ir/TirBodyTest.cpp - Structured PrimFunc bodies ----------------===//
//
// TVM's parser normalizes TIR text (T.axis.remap, T.grid, inferred
// T.reads/T.writes, the root block, intrinsic dtypes): each pair below is one
// PrimFunc in a sugared and in TVM's printed spelling, which must compare
// equal and print to the same bytes. Pairs that differ in one detail check
// that the comparison can fail; alpha-equivalence lets renamed vars and
// buffers compare equal.
//
//===----------------------------------------------------------------------===//

#include "ir/TirBody.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace graft;

namespace {

std::unique_ptr<IRModule> parse(const std::string &funcs) {
  std::string text = "from tvm.script import ir as I, relax as R, tir as T\n\n"
                     "@I.ir_module\nclass Module:\n" +
                     funcs;
  auto parsed = parseText(text, "tir.py");
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return nullptr;
  }
  return std::move(parsed->modules.front());
}

/// `def f(...)` with `body` (indented by 8) under a common signature.
std::string func(const std::string &body) {
  return "    @T.prim_func(private=True)\n"
         "    def f(A: T.Buffer((16, 16), \"float32\"), B: T.Buffer((16, 16), \"float32\"),\n"
         "          C: T.Buffer((16,), \"float32\")):\n" +
         body;
}

/// `samePrint`: the two also print the same (not so when names differ).
void expectSame(const std::string &a, const std::string &b, bool samePrint = true) {
  auto ma = parse(func(a)), mb = parse(func(b));
  ASSERT_TRUE(ma && mb);
  ASSERT_TRUE(ma->lookup("f")->asPrimFunc()->body) << "kept as tokens:\n" << a;
  ASSERT_TRUE(mb->lookup("f")->asPrimFunc()->body) << "kept as tokens:\n" << b;
  EXPECT_TRUE(structuralEqual(*ma, *mb)) << a << "\nvs\n" << b;
  if (samePrint) {
    EXPECT_EQ(printModule(*ma), printModule(*mb));
  }
  EXPECT_EQ(structuralHash(*ma), structuralHash(*mb));
}

void expectDifferent(const std::string &a, const std::string &b) {
  auto ma = parse(func(a)), mb = parse(func(b));
  ASSERT_TRUE(ma && mb);
  EXPECT_FALSE(structuralEqual(*ma, *mb)) << a << "\nvs\n" << b;
}

const char *kPrinted = R"(        # with T.block("root"):
        for i, j in T.grid(16, 16):
            with T.block("b"):
                vi = T.axis.spatial(16, i)
                vj = T.axis.spatial(16, j)
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = T.exp(A[vi, vj]) + T.float32(1.0)
)";

TEST(TirBody, RemapGridAndInferredRegions) {
  expectSame(R"(        for i, j in T.grid(16, 16):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = T.exp(A[vi, vj], dtype="float32") + 1.0
)",
             kPrinted);
  // Nested loops are T.grid; T.serial(n) is range(n).
  expectSame(R"(        for i in T.serial(16):
            for j in range(16):
                with T.block("b"):
                    vi = T.axis.S(16, i)
                    vj = T.axis.spatial(16, j)
                    B[vi, vj] = T.exp(A[vi, vj]) + T.float32(1)
)",
             kPrinted);
}

TEST(TirBody, PrintsAsTvmPrints) {
  auto m = parse(func(R"(        for i, j in T.grid(16, 16):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = T.exp(A[vi, vj], dtype="float32") + 1.0
)"));
  ASSERT_TRUE(m);
  std::string printed = printModule(*m);
  EXPECT_NE(printed.find(kPrinted), std::string::npos) << printed;
}

TEST(TirBody, ReductionInitAndRelaxedLoops) {
  // With T.init the written buffer is not a read; an inner loop of the
  // block reads a range.
  expectSame(R"(        for i in range(16):
            with T.block("sum"):
                vi = T.axis.remap("S", [i])
                with T.init():
                    C[vi] = T.float32(0)
                for k in range(16):
                    C[vi] = C[vi] + A[vi, k]
)",
             R"(        # with T.block("root"):
        for i in range(16):
            with T.block("sum"):
                vi = T.axis.spatial(16, i)
                T.reads(A[vi, 0:16])
                T.writes(C[vi])
                with T.init():
                    C[vi] = T.float32(0.0)
                for k in range(16):
                    C[vi] = C[vi] + A[vi, k]
)");
  expectDifferent(R"(        for i in range(16):
            with T.block("sum"):
                vi = T.axis.remap("S", [i])
                for k in range(16):
                    C[vi] = A[vi, k]
)",
                  R"(        for i in range(16):
            with T.block("sum"):
                vi = T.axis.remap("S", [i])
                T.reads(A[vi, 0:8])
                T.writes(C[vi])
                for k in range(16):
                    C[vi] = A[vi, k]
)");
}

TEST(TirBody, AlphaEquivalence) {
  // Renamed loop vars, block vars and allocated buffers compare equal.
  expectSame(R"(        X = T.alloc_buffer((16,), "float32")
        for i in range(16):
            with T.block("b"):
                vi = T.axis.remap("S", [i])
                X[vi] = C[vi]
)",
             R"(        Y = T.alloc_buffer((16,), "float32")
        for j in range(16):
            with T.block("b"):
                vj = T.axis.remap("S", [j])
                Y[vj] = C[vj]
)",
             /*samePrint=*/false);
  // Swapping the two uses of distinct vars is a difference.
  expectDifferent(R"(        for i, j in T.grid(16, 16):
            B[i, j] = A[i, j]
)",
                  R"(        for i, j in T.grid(16, 16):
            B[i, j] = A[j, i]
)");
  // So is a different buffer, and a different literal type.
  expectDifferent("        C[0] = A[0, 0]\n", "        C[0] = B[0, 0]\n");
  expectDifferent("        C[0] = T.float32(1)\n", "        C[0] = T.float16(1)\n");
}

TEST(TirBody, StatementsRoundTrip) {
  // Every statement kind the tree models prints text that reads back equal
  // and prints the same again.
  std::string body = R"(        n: T.int32 = 4
        X = T.alloc_buffer((16,), "float32", scope="shared")
        for i in T.parallel(16):
            for j in T.vectorized(4):
                for k in T.unroll(2, 4):
                    if i < n and j != 0:
                        X[i] = A[i, j] * T.float32(2)
                    elif k == 3:
                        X[i] = T.if_then_else(i > 0, A[i, k], T.float32(0))
                    else:
                        T.evaluate(0)
        for t in T.thread_binding(16, thread="threadIdx.x"):
            C[t] = T.Cast("float32", t) + -X[t]
        with T.launch_thread("blockIdx.x", 1) as bx:
            T.call_extern("int32", "f", bx)
        assert n > 0, "positive"
        while n < 4:
            C[0] = C[0] // T.float32(2) % T.float32(3)
        C[()] = T.max(C[0], C[1] - (C[2] - C[3]) - C[4])
)";
  // C is 1-d; `C[()]` would not be, so use a 0-d buffer.
  std::string text =
      "    @T.prim_func(private=True)\n"
      "    def g(A: T.Buffer((16, 16), \"float32\"), C: T.Buffer((16,), \"float32\"),\n"
      "          D: T.Buffer((), \"float32\")):\n" +
      body;
  text.replace(text.find("C[()] ="), 7, "D[()] =");
  auto m = parse(text);
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->lookup("g")->asPrimFunc()->body);
  std::string printed = printModule(*m);
  auto parsed = parseText(printed, "printed.py");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError()) << printed;
  const IRModule &back = *parsed->modules.front();
  ASSERT_TRUE(back.lookup("g")->asPrimFunc()->body) << printed;
  EXPECT_TRUE(structuralEqual(*m, back)) << printed;
  EXPECT_EQ(printModule(back), printed);
  EXPECT_NE(printed.find("C[1] - (C[2] - C[3]) - C[4]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("D[()] = "), std::string::npos) << printed;
}

TEST(TirBody, UnknownFormsStayTokens) {
  // A form the tree does not model keeps the body as tokens: accepted as
  // before, compared token by token.
  auto m = parse(func("        A[0, 0] += T.float32(1)\n"));
  ASSERT_TRUE(m);
  const PrimFuncNode *pf = m->lookup("f")->asPrimFunc();
  EXPECT_FALSE(pf->body);
  EXPECT_FALSE(pf->bodyTokens.empty());
}

TEST(TirBody, UndefinedNameIsTvmsParseError) {
  auto parsed = parseText("from tvm.script import ir as I, tir as T\n\n"
                          "@I.ir_module\nclass Module:\n" +
                              func("        for i in range(16):\n"
                                   "            C[i] = D[i, 0]\n"),
                          "undef.py");
  ASSERT_FALSE(bool(parsed));
  std::string msg = llvm::toString(parsed.takeError());
  // The location (file:line:col, caret) is checked by
  // tests/text/errors/tir_undefined_buffer.py.
  EXPECT_EQ(msg, "Undefined variable: D");
}

TEST(TirBody, CallsOfModuleFunctions) {
  auto m = parse(func("        C[0] = Module.g(C[1])\n") + "\n    @T.prim_func(private=True)\n"
                                                           "    def g(x: T.float32) -> T.float32:\n"
                                                           "        return x\n");
  ASSERT_TRUE(m);
  const PrimFuncNode *pf = m->lookup("f")->asPrimFunc();
  ASSERT_TRUE(pf->body);
  std::vector<std::string> called;
  tir::forEachCalledFunction(*pf->body, [&](llvm::StringRef n) { called.push_back(n.str()); });
  EXPECT_EQ(called, std::vector<std::string>{"g"});
  EXPECT_NE(printModule(*m).find("C[0] = Module.g(C[1])"), std::string::npos);
}

} // namespace
