//===- tests/kernels/ElementwiseTableTest.cpp - Every row, both consumers -===//
//
// Reads kernels/cpu/ElementwiseOps.def (as elementwise::kRows) and runs each
// row's kernel on one dtype its rule accepts and one it refuses, so a row
// whose rule or kernel drifts fails here; then runs each row as a one-op
// fused program, which must give the kernel's bits and refuse the same
// dtypes.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/FusedKernel.h"
#include "kernels/cpu/ElementwiseOps.h"

#include <cstring>
#include <set>

using namespace graft::kernels;
using namespace graft::kernels::test;
using graft::kernels::cpu::elementwise::DTypeRule;
using graft::kernels::cpu::elementwise::kRows;
using Row = graft::kernels::cpu::elementwise::RowInfo;

namespace {

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
    return {{F16, F16, F16, ""},
            {I32, I32, I32,
             s + (unary ? ": takes a floating-point tensor, got int32" : ": does not take int32")}};
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

/// The operands of a case: Arithmetic's accepted case mixes a bool operand
/// into a float64 op.
std::vector<TestTensor> operandsFor(const Row &row, const Case &c) {
  std::vector<TestTensor> v;
  v.reserve(2);
  v.emplace_back(c.in0, std::vector<int64_t>{4}, std::vector<double>{1, 2, -3, 0.5});
  if (row.arity == 2) {
    bool flag = row.rule == DTypeRule::Arithmetic && c.error.empty();
    v.emplace_back(flag ? BOOL : c.in1, std::vector<int64_t>{4},
                   std::vector<double>{2, 1, 3, flag ? 0 : -0.5});
  }
  return v;
}

std::vector<TestTensor *> pointers(std::vector<TestTensor> &v) {
  std::vector<TestTensor *> p;
  for (TestTensor &t : v)
    p.push_back(&t);
  return p;
}

std::string run(const Row &row, const Case &c) {
  std::vector<TestTensor> in = operandsFor(row, c);
  TestTensor o(c.out, {4});
  return runKernel(row.symbol, pointers(in), {&o});
}

const char *nameOf(const Row &row) { return cpu::elementwise::scriptName(row.symbol); }

/// The row as a one-op fused program over `in`.
std::string programOf(const Row &row, std::vector<TestTensor> &in, DLDataType out) {
  std::string text = "fused 2\n";
  for (size_t i = 0; i < in.size(); ++i)
    text += "input %" + std::to_string(i) + " " + cpu::dtypeName(in[i].dl()->dtype) + " 1\n";
  std::string r = "%" + std::to_string(in.size());
  text += r + " = " + nameOf(row) + " " + cpu::dtypeName(out);
  for (size_t i = 0; i < in.size(); ++i)
    text += " %" + std::to_string(i);
  return text + "\noutput " + r + "\n";
}

TEST(ElementwiseTable, EveryRowIsRegisteredOnceWithItsArity) {
  std::set<std::string> seen;
  for (const Row &row : kRows) {
    EXPECT_EQ(llvm::StringRef(row.symbol), "graft." + std::string(nameOf(row)));
    EXPECT_TRUE(seen.insert(row.symbol).second) << row.symbol;
    const KernelInfo *k = lookupKernel(row.symbol);
    ASSERT_NE(k, nullptr) << row.symbol;
    EXPECT_EQ(k->numInputs, row.arity) << row.symbol;
    EXPECT_EQ(k->numOutputs, 1) << row.symbol;
    EXPECT_TRUE(k->attrNames.empty()) << row.symbol;
  }
  EXPECT_EQ(seen.size(), cpu::elementwise::kNumRows);
  EXPECT_EQ(seen.size(), 61u);
}

TEST(ElementwiseTable, EveryRowAcceptsAndRefusesPerItsRule) {
  for (const Row &row : kRows) {
    auto [ok, bad] = casesFor(row);
    EXPECT_EQ(run(row, ok), "") << row.symbol;
    EXPECT_EQ(run(row, bad), bad.error) << row.symbol;
  }
}

TEST(ElementwiseTable, EveryRowIsAFusedOpWithTheKernelsBitsAndRules) {
  for (const Row &row : kRows) {
    SCOPED_TRACE(row.symbol);
    EXPECT_TRUE(isFusedProgramOp(nameOf(row)));
    auto [ok, bad] = casesFor(row);
    std::vector<TestTensor> in = operandsFor(row, ok);
    TestTensor want(ok.out, {4}), got(ok.out, {4});
    ASSERT_EQ(runKernel(row.symbol, pointers(in), {&want}), "");
    std::string text = programOf(row, in, ok.out);
    auto program = parseFusedProgram(text);
    ASSERT_TRUE(bool(program)) << text << llvm::toString(program.takeError());
    std::vector<DLTensor *> ins, outs{got.dl()};
    for (TestTensor &t : in)
      ins.push_back(t.dl());
    KernelArgs args{ins, outs, {}, {}};
    std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
    args.workspace = {ws.data(), ws.size()};
    llvm::Error err = runFusedProgram(**program, args, "graft.fused.row");
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
    size_t bytes = 4 * (ok.out.bits / 8);
    EXPECT_EQ(std::memcmp(got.dl()->data, want.dl()->data, bytes), 0) << text;

    // The dtypes the kernel refuses are a load-time error naming the op.
    std::vector<TestTensor> badIn = operandsFor(row, bad);
    std::string badText = programOf(row, badIn, bad.out);
    auto refused = parseFusedProgram(badText);
    ASSERT_FALSE(bool(refused)) << badText;
    std::string msg = llvm::toString(refused.takeError());
    EXPECT_NE(msg.find("'" + std::string(nameOf(row)) + "' "), std::string::npos) << msg;
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
