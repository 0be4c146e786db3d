//===- tests/ir/SimplifyTest.cpp - simplify, prove*, PrimExpr printing ------===//

#include "ir/PrimExpr.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

using namespace graft;

namespace {

PrimExpr var(const char *name, DataType dt = DataType::int64()) {
  return make<TirVarNode>(name, dt);
}
PrimExpr c(int64_t v) { return intImm(v); }
PrimExpr add(PrimExpr a, PrimExpr b) { return primBinary(PrimOp::Add, a, b); }
PrimExpr sub(PrimExpr a, PrimExpr b) { return primBinary(PrimOp::Sub, a, b); }
PrimExpr mul(PrimExpr a, PrimExpr b) { return primBinary(PrimOp::Mul, a, b); }
PrimExpr pdiv(PrimExpr a, PrimExpr b) { return primBinary(PrimOp::FloorDiv, a, b); }
PrimExpr pmod(PrimExpr a, PrimExpr b) { return primBinary(PrimOp::FloorMod, a, b); }

std::string simp(const PrimExpr &e) { return toString(simplify(e).get()); }

class SimplifyTest : public ::testing::Test {
protected:
  PrimExpr n = var("n"), m = var("m"), k = var("k");
};

TEST_F(SimplifyTest, DropsIdentities) {
  EXPECT_EQ(simp(add(mul(n, c(1)), c(0))), "n");
  EXPECT_EQ(simp(mul(c(1), n)), "n");
  EXPECT_EQ(simp(pdiv(n, c(1))), "n");
  EXPECT_EQ(simp(pmod(n, c(1))), "0");
  EXPECT_EQ(simp(mul(n, c(0))), "0");
  EXPECT_EQ(simp(sub(n, n)), "0");
  EXPECT_EQ(simp(sub(add(n, c(1)), c(1))), "n");
}

TEST_F(SimplifyTest, FoldsConstants) {
  EXPECT_EQ(simp(add(c(2), mul(c(3), c(4)))), "14");
  EXPECT_EQ(simp(pdiv(c(7), c(2))), "3");
  EXPECT_EQ(simp(pdiv(c(-7), c(2))), "-4");
  EXPECT_EQ(simp(pmod(c(-7), c(2))), "1");
  EXPECT_EQ(simp(pmod(c(7), c(-2))), "-1");
  EXPECT_EQ(simp(primBinary(PrimOp::Max, c(3), c(5))), "5");
  EXPECT_EQ(simp(primBinary(PrimOp::Min, c(3), c(5))), "3");
  EXPECT_EQ(simp(primBinary(PrimOp::LT, c(3), c(5))), "True");
  EXPECT_EQ(simp(primBinary(PrimOp::EQ, c(3), c(5))), "False");
  EXPECT_EQ(simp(primBinary(PrimOp::GE, add(n, c(1)), n)), "True");
  EXPECT_EQ(simp(primBinary(PrimOp::LT, n, m)), "n < m");
}

TEST_F(SimplifyTest, CanonicalTermOrder) {
  EXPECT_EQ(simp(add(c(1), mul(c(2), n))), "n * 2 + 1");
  EXPECT_EQ(simp(mul(add(n, c(1)), c(2))), "n * 2 + 2");
  EXPECT_EQ(simp(add(n, mul(m, c(2)))), "m * 2 + n");
  EXPECT_EQ(simp(add(n, m)), "n + m");
  EXPECT_EQ(simp(mul(n, m)), "n * m");
  EXPECT_EQ(simp(add(add(n, m), n)), "n * 2 + m");
  EXPECT_EQ(simp(sub(sub(n, m), c(1))), "n - m - 1");
  EXPECT_EQ(simp(sub(c(1), n)), "1 - n");
  EXPECT_EQ(simp(sub(c(0), n)), "0 - n");
  EXPECT_EQ(simp(add(add(c(2), n), add(c(3), n))), "n * 2 + 5");
  EXPECT_EQ(simp(mul(mul(n, c(2)), m)), "n * 2 * m");
}

TEST_F(SimplifyTest, DivModByConstant) {
  EXPECT_EQ(simp(pdiv(mul(n, c(4)), c(4))), "n");
  EXPECT_EQ(simp(pdiv(add(mul(n, c(4)), c(6)), c(4))), "n + 1");
  EXPECT_EQ(simp(pdiv(add(n, c(1)), c(2))), "(n + 1) // 2");
  EXPECT_EQ(simp(pdiv(mul(n, c(2)), c(4))), "n // 2");
  EXPECT_EQ(simp(pdiv(add(mul(n, c(4)), m), c(4))), "n + m // 4");
  EXPECT_EQ(simp(pmod(add(mul(n, c(4)), c(2)), c(4))), "2");
  EXPECT_EQ(simp(pmod(add(n, c(5)), c(4))), "(n + 1) % 4");
  EXPECT_EQ(simp(pdiv(n, c(0))), "n // 0"); // left alone, no crash
  EXPECT_EQ(simp(pdiv(n, m)), "n // m");
}

TEST_F(SimplifyTest, MinMaxByConstantDifference) {
  EXPECT_EQ(simp(primBinary(PrimOp::Min, n, add(n, c(1)))), "n");
  EXPECT_EQ(simp(primBinary(PrimOp::Max, n, add(n, c(1)))), "n + 1");
  EXPECT_EQ(simp(primBinary(PrimOp::Max, n, n)), "n");
  EXPECT_EQ(simp(primBinary(PrimOp::Max, n, m)), "T.max(n, m)");
}

TEST_F(SimplifyTest, LogicCastSelect) {
  PrimExpr t = boolImm(true), f = boolImm(false);
  PrimExpr cond = primBinary(PrimOp::LT, n, m);
  EXPECT_EQ(simp(primBinary(PrimOp::And, cond, t)), "n < m");
  EXPECT_EQ(simp(primBinary(PrimOp::And, cond, f)), "False");
  EXPECT_EQ(simp(primBinary(PrimOp::Or, t, cond)), "True");
  EXPECT_EQ(simp(make<PrimNotNode>(f)), "True");
  EXPECT_EQ(simp(make<PrimCastNode>(DataType::int32(), c(300))), "300");
  EXPECT_EQ(simp(make<PrimCastNode>(DataType(DataType::Int, 8), c(300))), "T.int8(44)");
  EXPECT_EQ(simp(make<PrimCastNode>(DataType::float32(), c(3))), "T.float32(3.0)");
  EXPECT_EQ(simp(make<PrimSelectNode>(t, n, m)), "n");
  EXPECT_EQ(simp(make<PrimSelectNode>(cond, n, n)), "n");
}

TEST_F(SimplifyTest, SameNodeWhenUnchanged) {
  PrimExpr e = add(mul(n, c(2)), c(1));
  EXPECT_EQ(simplify(e).get(), e.get());
  EXPECT_EQ(simplify(n).get(), n.get());
  PrimExpr changed = add(c(1), mul(c(2), n));
  EXPECT_NE(simplify(changed).get(), changed.get());
}

TEST_F(SimplifyTest, OverflowIsNotFolded) {
  PrimExpr big = add(c(INT64_MAX), c(1));
  EXPECT_EQ(simp(big), "9223372036854775807 + 1");
  PrimExpr bigMul = mul(add(n, c(INT64_MAX)), c(4));
  EXPECT_EQ(simp(bigMul), "(n + 9223372036854775807) * 4");
}

TEST_F(SimplifyTest, Proofs) {
  EXPECT_TRUE(proveEqual(mul(n, c(2)), add(n, n)));
  EXPECT_TRUE(proveEqual(pdiv(mul(n, c(4)), c(2)), mul(c(2), n)));
  EXPECT_FALSE(proveEqual(n, m));
  EXPECT_TRUE(proveNotEqual(n, add(n, c(1))));
  EXPECT_TRUE(proveNotEqual(c(2), c(3)));
  EXPECT_FALSE(proveNotEqual(n, m));
  EXPECT_FALSE(proveNotEqual(n, n));
  EXPECT_TRUE(proveNotEqual(floatImm(1.0), floatImm(2.0)));
}

TEST_F(SimplifyTest, IdenticalAndVarWalk) {
  EXPECT_TRUE(primExprIdentical(add(n, c(1)).get(), add(n, c(1)).get()));
  EXPECT_FALSE(primExprIdentical(add(n, c(1)).get(), add(c(1), n).get()));
  EXPECT_FALSE(primExprIdentical(n.get(), var("n").get()));
  EXPECT_FALSE(primExprIdentical(c(1).get(), intImm(1, DataType::int32()).get()));
  std::string seen;
  forEachTirVar(add(mul(n, m), pdiv(k, n)).get(), [&](const TirVarNode *v) { seen += v->name; });
  EXPECT_EQ(seen, "nmkn");
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

TEST_F(SimplifyTest, PrintsWithPythonPrecedence) {
  EXPECT_EQ(toString(pdiv(add(n, c(1)), c(2)).get()), "(n + 1) // 2");
  EXPECT_EQ(toString(pmod(n, c(4)).get()), "n % 4");
  EXPECT_EQ(toString(sub(n, add(m, k)).get()), "n - (m + k)");
  EXPECT_EQ(toString(add(sub(n, m), k).get()), "n - m + k");
  EXPECT_EQ(toString(mul(n, add(m, c(1))).get()), "n * (m + 1)");
  EXPECT_EQ(toString(pdiv(n, mul(m, k)).get()), "n // (m * k)");
  EXPECT_EQ(toString(mul(pdiv(n, m), k).get()), "n // m * k");
  EXPECT_EQ(toString(mul(n, c(-1)).get()), "n * -1");
  EXPECT_EQ(toString(primBinary(PrimOp::LT, add(n, c(1)), m).get()), "n + 1 < m");
  PrimExpr lt = primBinary(PrimOp::LT, n, m);
  EXPECT_EQ(toString(primBinary(PrimOp::EQ, lt, boolImm(true)).get()), "(n < m) == True");
  EXPECT_EQ(toString(primBinary(PrimOp::EQ, boolImm(true), lt).get()), "True == (n < m)");
}

TEST_F(SimplifyTest, PrintsCallsAndLiterals) {
  PrimExpr lt = primBinary(PrimOp::LT, n, m);
  EXPECT_EQ(toString(primBinary(PrimOp::Max, n, m).get()), "T.max(n, m)");
  EXPECT_EQ(toString(primBinary(PrimOp::Min, add(n, c(1)), m).get()), "T.min(n + 1, m)");
  EXPECT_EQ(toString(primBinary(PrimOp::And, lt, boolImm(false)).get()), "T.And(n < m, False)");
  EXPECT_EQ(toString(primBinary(PrimOp::Or, lt, lt).get()), "T.Or(n < m, n < m)");
  EXPECT_EQ(toString(make<PrimNotNode>(lt).get()), "T.Not(n < m)");
  EXPECT_EQ(toString(make<PrimCastNode>(DataType::int32(), n).get()), "T.Cast(\"int32\", n)");
  EXPECT_EQ(toString(make<PrimSelectNode>(lt, n, c(0)).get()), "T.if_then_else(n < m, n, 0)");
  EXPECT_EQ(toString(c(5).get()), "5");
  EXPECT_EQ(toString(intImm(5, DataType::int32()).get()), "5");
  EXPECT_EQ(toString(intImm(5, DataType(DataType::Int, 8)).get()), "T.int8(5)");
  EXPECT_EQ(toString(intImm(5, DataType(DataType::UInt, 8)).get()), "T.uint8(5)");
  EXPECT_EQ(toString(boolImm(true).get()), "True");
  EXPECT_EQ(toString(floatImm(1.5, DataType::float32()).get()), "T.float32(1.5)");
  EXPECT_EQ(toString(floatImm(2.0).get()), "T.float64(2.0)");
  EXPECT_EQ(toString(floatImm(0.1).get()), "T.float64(0.10000000000000001)");
  EXPECT_EQ(toString(floatImm(-INFINITY, DataType::float32()).get()), "T.float32(\"-inf\")");
}

TEST_F(SimplifyTest, PrintsVarsThroughHook) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printPrimExpr(os, add(mul(n, c(2)), c(1)).get(),
                [](llvm::raw_ostream &o, const TirVarNode *v) { o << '"' << v->name << '"'; });
  EXPECT_EQ(os.str(), "\"n\" * 2 + 1");
}

} // namespace
