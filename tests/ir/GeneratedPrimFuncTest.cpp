//===- tests/ir/GeneratedPrimFuncTest.cpp - shape_func / compute_symbolic_expr ===//
//
// The PrimFuncs graft generates parse to PrimExprs (heapStores/heapLoads,
// computed), print back as TVM v0.23 prints them and compare structurally;
// any other body stays tokens.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "gtest/gtest.h"

using namespace graft;

namespace {

const char *kHeader = "from tvm.script import ir as I, relax as R, tir as T\n\n"
                      "@I.ir_module\nclass Module:\n";

std::unique_ptr<IRModule> parse(const std::string &body) {
  auto parsed = parseText(std::string(kHeader) + body, "gen.py");
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return nullptr;
  }
  return std::move(parsed->modules.front());
}

const PrimFuncNode *primFunc(const IRModule &m, llvm::StringRef name) {
  const ModuleEntry *e = m.lookup(name);
  return e ? e->asPrimFunc() : nullptr;
}

const char *kShapeFunc = R"(
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(2)] = H[T.int64(0)] + T.int64(1)
        H[T.int64(3)] = H[T.int64(1)] * H[T.int64(0)]
)";

TEST(GeneratedPrimFunc, ShapeFuncBodyIsHeapStores) {
  auto m = parse(kShapeFunc);
  ASSERT_TRUE(m);
  const PrimFuncNode *pf = primFunc(*m, "shape_func");
  ASSERT_NE(pf, nullptr);
  EXPECT_TRUE(pf->bodyTokens.empty());
  EXPECT_FALSE(pf->isPure);
  ASSERT_EQ(pf->heapStores.size(), 2u);
  EXPECT_EQ(pf->heapStores[0].first, 2);
  EXPECT_EQ(pf->heapStores[1].first, 3);
  ASSERT_EQ(pf->heapLoads.size(), 2u);
  EXPECT_EQ(pf->heapLoads[0].first, 0);
  EXPECT_EQ(pf->heapLoads[1].first, 1);
  // The second store reads slot 0 through the same var as the first.
  const auto *mul = llvm::dyn_cast<PrimBinaryNode>(pf->heapStores[1].second.get());
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->b.get(), pf->heapLoads[0].second.get());
  std::string text = printModule(*m);
  EXPECT_NE(text.find("        H[T.int64(2)] = H[T.int64(0)] + T.int64(1)\n"
                      "        H[T.int64(3)] = H[T.int64(1)] * H[T.int64(0)]\n"),
            std::string::npos)
      << text;
}

TEST(GeneratedPrimFunc, ComputeSymbolicExprBodyIsComputed) {
  auto m = parse(R"(
    @T.prim_func(private=True)
    def compute_symbolic_expr(N: T.int64) -> T.bool:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N % 16 == 0)
)");
  ASSERT_TRUE(m);
  const PrimFuncNode *pf = primFunc(*m, "compute_symbolic_expr");
  ASSERT_NE(pf, nullptr);
  EXPECT_TRUE(pf->bodyTokens.empty());
  EXPECT_TRUE(pf->isPure);
  ASSERT_TRUE(pf->computed);
  EXPECT_EQ(toString(pf->computed.get()), "N % 16 == 0");
  // Bare literals take N's type, so TVM's printed spelling comes back.
  EXPECT_NE(printModule(*m).find("        T.ret(N % T.int64(16) == T.int64(0))\n"),
            std::string::npos);
}

TEST(GeneratedPrimFunc, OtherBodiesAreNotGenerated) {
  auto m = parse(R"(
    @T.prim_func(private=True)
    def int32_index(H: T.Buffer((T.int64(4),), "int64")):
        H[2] = H[T.int64(0)] + T.int64(1)

    @T.prim_func(private=True)
    def two_statements(N: T.int64) -> T.int64:
        T.evaluate(0)
        T.ret(N)

    @T.prim_func(private=True)
    def other_buffer(H: T.Buffer((T.int64(4),), "int64"), G: T.Buffer((T.int64(4),), "int64")):
        H[T.int64(2)] = G[T.int64(0)]

    @T.prim_func(private=True)
    def float_buffer(H: T.Buffer((4,), "float32")):
        H[T.int64(2)] = H[T.int64(0)]
)");
  ASSERT_TRUE(m);
  for (const char *name : {"int32_index", "two_statements", "other_buffer", "float_buffer"}) {
    const PrimFuncNode *pf = primFunc(*m, name);
    ASSERT_NE(pf, nullptr) << name;
    EXPECT_TRUE(pf->body) << name; // A TIR statement tree.
    EXPECT_TRUE(pf->heapStores.empty()) << name;
    EXPECT_FALSE(pf->computed) << name;
  }
  EXPECT_FALSE(primFunc(*m, "int32_index")->isPure);
}

TEST(GeneratedPrimFunc, StructuralEqualityAndHash) {
  auto a = parse(kShapeFunc);
  auto b = parse(kShapeFunc);
  std::string swapped = kShapeFunc;
  swapped.replace(swapped.find("H[T.int64(1)] * H[T.int64(0)]"), 29,
                  "H[T.int64(0)] * H[T.int64(1)]");
  auto c = parse(swapped);
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
  EXPECT_FALSE(structuralEqual(*a, *c));
  EXPECT_NE(structuralHash(*a), structuralHash(*c));
}

TEST(GeneratedPrimFunc, ScalarParamsPairByPosition) {
  const char *fn = R"(
    @T.prim_func(private=True)
    def f(a: T.int64, b: T.int64) -> T.int64:
        T.ret(a - b)
)";
  auto x = parse(fn);
  std::string renamed = fn;
  renamed.replace(renamed.find("(a: T.int64, b: T.int64)"), 24, "(b: T.int64, a: T.int64)");
  renamed.replace(renamed.find("T.ret(a - b)"), 12, "T.ret(b - a)");
  auto y = parse(renamed); // The same function with its params renamed.
  std::string flipped = fn;
  flipped.replace(flipped.find("T.ret(a - b)"), 12, "T.ret(b - a)");
  auto z = parse(flipped);
  ASSERT_TRUE(x && y && z);
  EXPECT_TRUE(structuralEqual(*x, *y));
  EXPECT_EQ(structuralHash(*x), structuralHash(*y));
  EXPECT_FALSE(structuralEqual(*x, *z));
}

} // namespace
