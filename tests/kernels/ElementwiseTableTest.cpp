//===- tests/kernels/ElementwiseTableTest.cpp - Every row's dtype rule ----===//
//
// Reads kernels/cpu/ElementwiseOps.def and runs each row's kernel on one
// dtype its rule accepts and one it refuses, so a row whose rule or kernel
// drifts fails here.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/cpu/ElementwiseOps.h"

#include <set>

using namespace graft::kernels;
using namespace graft::kernels::test;
using graft::kernels::cpu::elementwise::DTypeRule;

namespace {

struct Row {
  const char *symbol;
  int arity;
  DTypeRule rule;
};

const Row kRows[] = {
#define GRAFT_UNARY_OP(Name, Symbol, Rule, ...) {Symbol, 1, DTypeRule::Rule},
#define GRAFT_BINARY_OP(Name, Symbol, Rule, ...) {Symbol, 2, DTypeRule::Rule},
#include "kernels/cpu/ElementwiseOps.def"
};

/// One run of a row's kernel: input dtypes, output dtype, and the expected
/// error ("" for success).
struct Case {
  DLDataType in0, in1, out;
  std::string error;
};

/// The accepted and the refused case of a rule.
std::pair<Case, Case> casesFor(const Row &row) {
  std::string s = row.symbol;
  bool unary = row.arity == 1;
  switch (row.rule) {
  case DTypeRule::Numeric:
    return {{I32, I32, I32, ""},
            {BOOL, BOOL, BOOL,
             s + (unary ? ": takes a numeric tensor, got bool" : ": does not take bool")}};
  case DTypeRule::Arithmetic:
    return {{F64, I8 /*unused*/, F64, ""},
            {BOOL, BOOL, BOOL, s + ": does not take bool; cast to an integer type first"}};
  case DTypeRule::Float:
    return {{F16, F16, F16, ""}, {I32, I32, I32, s + ": takes a floating-point tensor, got int32"}};
  case DTypeRule::IntOrBool:
    return {{BOOL, BOOL, BOOL, ""},
            {F32, F32, F32,
             s + (unary ? ": takes an integer or bool tensor, got float32"
                        : ": does not take float32")}};
  case DTypeRule::Int:
    return {{U8, U8, U8, ""}, {BOOL, BOOL, BOOL, s + ": does not take bool"}};
  case DTypeRule::Compare:
    return {{F32, F32, BOOL, ""}, {F32, I32, BOOL, s + ": input dtypes float32 and int32 differ"}};
  case DTypeRule::Logical:
  case DTypeRule::Predicate:
    return {{BF16, I64, BOOL, ""},
            {F32, F32, F32, s + ": output 0 has dtype float32, expected bool"}};
  }
  return {};
}

std::string run(const Row &row, const Case &c) {
  TestTensor a(c.in0, {2}, {1, 2});
  TestTensor b(c.in1, {2}, {2, 1});
  TestTensor o(c.out, {2});
  if (row.arity == 1)
    return runKernel(row.symbol, {&a}, {&o});
  // Arithmetic's accepted case mixes a bool operand into a float64 op.
  if (row.rule == DTypeRule::Arithmetic && c.error.empty()) {
    TestTensor flag(BOOL, {2}, {1, 0});
    return runKernel(row.symbol, {&a, &flag}, {&o});
  }
  return runKernel(row.symbol, {&a, &b}, {&o});
}

TEST(ElementwiseTable, EveryRowIsRegisteredOnceWithItsArity) {
  std::set<std::string> seen;
  for (const Row &row : kRows) {
    EXPECT_TRUE(seen.insert(row.symbol).second) << row.symbol;
    const KernelInfo *k = lookupKernel(row.symbol);
    ASSERT_NE(k, nullptr) << row.symbol;
    EXPECT_EQ(k->numInputs, row.arity) << row.symbol;
    EXPECT_EQ(k->numOutputs, 1) << row.symbol;
    EXPECT_TRUE(k->attrNames.empty()) << row.symbol;
  }
  EXPECT_EQ(seen.size(), 59u);
}

TEST(ElementwiseTable, EveryRowAcceptsAndRefusesPerItsRule) {
  for (const Row &row : kRows) {
    auto [ok, bad] = casesFor(row);
    EXPECT_EQ(run(row, ok), "") << row.symbol;
    EXPECT_EQ(run(row, bad), bad.error) << row.symbol;
  }
}

TEST(ElementwiseTable, BoolResultRulesWriteBool) {
  // isfinite of int64 is true everywhere; logical_not of 0.0 is true.
  TestTensor i = TestTensor::ints(I64, {2}, {5, -5}), o(BOOL, {2});
  RUN_OK("graft.isfinite", {&i}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1, 1}));
  TestTensor f(F32, {2}, {0, NAN});
  RUN_OK("graft.logical_not", {&f}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1, 0}));
}

} // namespace
