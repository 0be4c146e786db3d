//===- tests/kernels/FusedProgramTest.cpp - Fused kernel programs ---------===//
//
// A fused program must give exactly the bits of its ops' own kernels run
// one by one (each intermediate materialized in its dtype): every test runs
// both and compares the output bytes.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/FusedKernel.h"

#include <map>
#include <memory>
#include <string>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

/// One op of a chain: value k (inputs first, then ops) = op(operands).
struct Step {
  std::string op;
  std::vector<int> operands;
  DLDataType dtype;
};

std::string dtypeText(DLDataType t) { return cpu::dtypeName(t); }

std::vector<int64_t> broadcastShape(const std::vector<std::vector<int64_t>> &shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto &s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &d = out[rank - s.size() + i];
      if (s[i] != 1)
        d = s[i];
    }
  return out;
}

/// The program text for `steps` over `inputs`; `constants` (value index ->
/// literal) become const lines instead of inputs.
std::string programText(const std::vector<TestTensor *> &inputs, const std::vector<Step> &steps,
                        const std::map<int, std::string> &constants = {}) {
  std::string text = "fused 2\n";
  // Program registers: inputs that are not constants, then constants, then ops.
  std::map<int, int> reg;
  int next = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!constants.count(int(i))) {
      reg[int(i)] = next;
      text += "input %" + std::to_string(next++) + " " + dtypeText(inputs[i]->dl()->dtype) + " " +
              std::to_string(inputs[i]->shape.size()) + "\n";
    }
  for (const auto &[i, literal] : constants) {
    reg[i] = next;
    text += "const %" + std::to_string(next++) + " " + dtypeText(inputs[i]->dl()->dtype) + " " +
            literal + "\n";
  }
  for (size_t s = 0; s < steps.size(); ++s) {
    int v = int(inputs.size() + s);
    reg[v] = next;
    text += "%" + std::to_string(next++) + " = " + steps[s].op + " " + dtypeText(steps[s].dtype);
    for (int o : steps[s].operands)
      text += " %" + std::to_string(reg[o]);
    text += "\n";
  }
  text += "output %" + std::to_string(next - 1) + "\n";
  return text;
}

/// Runs the chain op by op; returns the last value.
std::unique_ptr<TestTensor> runUnfused(const std::vector<TestTensor *> &inputs,
                                       const std::vector<Step> &steps) {
  std::vector<std::unique_ptr<TestTensor>> owned;
  std::vector<TestTensor *> values(inputs);
  for (const Step &s : steps) {
    std::vector<std::vector<int64_t>> shapes;
    std::vector<TestTensor *> args;
    for (int o : s.operands) {
      shapes.push_back(values[o]->shape);
      args.push_back(values[o]);
    }
    owned.push_back(std::make_unique<TestTensor>(s.dtype, broadcastShape(shapes)));
    std::string err = runKernel("graft." + s.op, args, {owned.back().get()});
    EXPECT_EQ(err, "") << s.op;
    values.push_back(owned.back().get());
  }
  return std::move(owned.back());
}

std::string runProgram(const std::string &text, std::vector<TestTensor *> inputs, TestTensor &out) {
  llvm::Expected<std::shared_ptr<const FusedProgram>> program = parseFusedProgram(text);
  if (!program)
    return llvm::toString(program.takeError());
  std::vector<DLTensor *> in;
  for (TestTensor *t : inputs)
    in.push_back(t->dl());
  std::vector<DLTensor *> outs{out.dl()};
  KernelArgs args{in, outs, {}, {}};
  std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
  args.workspace = {ws.data(), ws.size()};
  llvm::Error err = runFusedProgram(**program, args, "graft.fused.test");
  return err ? llvm::toString(std::move(err)) : "";
}

/// Bytes of every element of two tensors of one dtype and shape.
void expectSameBits(const TestTensor &got, const TestTensor &want) {
  TestTensor g(got), w(want); // Contiguous copies.
  ASSERT_EQ(g.shape, w.shape);
  ASSERT_EQ(g.dl()->dtype.code, w.dl()->dtype.code);
  ASSERT_EQ(g.dl()->dtype.bits, w.dl()->dtype.bits);
  size_t bytes = size_t(g.numel()) * (g.dl()->dtype.bits / 8);
  const auto *gb = static_cast<const uint8_t *>(g.dl()->data);
  const auto *wb = static_cast<const uint8_t *>(w.dl()->data);
  for (size_t i = 0; i < bytes; ++i)
    ASSERT_EQ(gb[i], wb[i]) << "byte " << i << " of " << bytes;
}

/// Fused against unfused, for the chain's inputs (the output takes the
/// broadcast shape of the whole chain).
void checkChain(const std::vector<TestTensor *> &inputs, const std::vector<Step> &steps,
                const std::map<int, std::string> &constants = {}) {
  std::unique_ptr<TestTensor> want = runUnfused(inputs, steps);
  TestTensor got(steps.back().dtype, want->shape);
  std::vector<TestTensor *> programInputs;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!constants.count(int(i)))
      programInputs.push_back(inputs[i]);
  std::string text = programText(inputs, steps, constants);
  ASSERT_EQ(runProgram(text, programInputs, got), "") << text;
  expectSameBits(got, *want);
}

/// Values with signs, fractions, zeros, large magnitudes, and (for floats)
/// NaN and infinities.
std::vector<double> mixed(int64_t n, uint32_t seed, bool special = true) {
  std::vector<double> v(static_cast<size_t>(n));
  uint32_t x = seed * 2654435761u + 1;
  for (int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    double r = double(x >> 8) / double(1 << 24); // [0, 1)
    v[size_t(i)] = (r - 0.5) * 20.0;
    if (special && i % 97 == 5)
      v[size_t(i)] = NAN;
    if (special && i % 89 == 7)
      v[size_t(i)] = i % 2 ? INFINITY : -INFINITY;
    if (i % 31 == 3)
      v[size_t(i)] = 0.0;
  }
  return v;
}

std::vector<int64_t> mixedInts(int64_t n, uint32_t seed, int64_t range) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  uint32_t x = seed * 2654435761u + 7;
  for (int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    v[size_t(i)] = int64_t(x >> 8) % (2 * range + 1) - range;
  }
  return v;
}

TEST(FusedProgram, Float32ChainWithBroadcast) {
  // 5 x 700 = 3500 elements: several tiles, a bias broadcast along rows.
  TestTensor x(F32, {5, 700}, mixed(3500, 1)), y(F32, {5, 700}, mixed(3500, 2));
  TestTensor bias(F32, {700}, mixed(700, 3, false));
  checkChain({&x, &y, &bias}, {{"add", {0, 2}, F32},
                               {"multiply", {3, 1}, F32},
                               {"exp", {4}, F32},
                               {"subtract", {5, 0}, F32},
                               {"maximum", {6, 1}, F32},
                               {"tanh", {7}, F32},
                               {"nn.gelu", {8}, F32},
                               {"divide", {9, 2}, F32}});
}

TEST(FusedProgram, Float16AndBFloat16RoundAfterEveryOp) {
  for (DLDataType t : {F16, BF16}) {
    TestTensor x(t, {3, 1000}, mixed(3000, 4)), y(t, {3, 1000}, mixed(3000, 5));
    checkChain({&x, &y}, {{"add", {0, 1}, t},
                          {"multiply", {2, 0}, t},
                          {"sqrt", {3}, t},
                          {"divide", {4, 1}, t},
                          {"sigmoid", {5}, t},
                          {"power", {6, 0}, t}});
  }
}

TEST(FusedProgram, Int32WrapsAndDividesByZeroAsItsKernels) {
  TestTensor x = TestTensor::ints(I32, {2050}, mixedInts(2050, 6, 1 << 30));
  TestTensor y = TestTensor::ints(I32, {2050}, mixedInts(2050, 7, 40));
  checkChain({&x, &y}, {{"multiply", {0, 1}, I32},
                        {"add", {2, 0}, I32},
                        {"floor_divide", {3, 1}, I32},
                        {"floor_mod", {4, 1}, I32},
                        {"left_shift", {5, 1}, I32},
                        {"abs", {6}, I32},
                        {"bitwise_xor", {7, 0}, I32},
                        {"negative", {8}, I32}});
}

TEST(FusedProgram, BoolResultsFeedWhere) {
  TestTensor x(F32, {4, 300}, mixed(1200, 8)), lim(F32, {4, 1}, {0.5, -1.0, 2.0, 0.0});
  checkChain({&x, &lim}, {{"less", {0, 1}, BOOL},
                          {"isnan", {0}, BOOL},
                          {"logical_or", {2, 3}, BOOL},
                          {"where", {4, 0, 1}, F32},
                          {"greater_equal", {5, 1}, BOOL},
                          {"logical_not", {6}, BOOL},
                          {"add", {7, 5}, F32}}); // bool + float32: the bool converts.
}

TEST(FusedProgram, AstypeRoundsWhereItsKernelDoes) {
  TestTensor x(F32, {1500}, mixed(1500, 9));
  checkChain({&x}, {{"astype", {0}, F16},
                    {"multiply", {1, 1}, F16},
                    {"astype", {2}, F32},
                    {"astype", {3}, I32},
                    {"astype", {4}, BF16},
                    {"astype", {5}, BOOL},
                    {"astype", {6}, F64}});
}

TEST(FusedProgram, StridedAndOffsetInputs) {
  // x stored transposed, y at an offset, z broadcast from a column.
  TestTensor x(F32, {40, 60}, mixed(2400, 10), {1, 0});
  TestTensor y(F32, {40, 60}, mixed(2400, 11), {}, 13);
  TestTensor z(F32, {40, 1}, mixed(40, 12));
  checkChain({&x, &y, &z},
             {{"add", {0, 1}, F32}, {"multiply", {3, 2}, F32}, {"minimum", {4, 0}, F32}});
}

TEST(FusedProgram, StridedOutput) {
  TestTensor x(F32, {30, 70}, mixed(2100, 13)), y(F32, {70}, mixed(70, 14));
  std::unique_ptr<TestTensor> want =
      runUnfused({&x, &y}, {{"add", {0, 1}, F32}, {"sin", {2}, F32}});
  TestTensor got(F32, {30, 70}, {}, {1, 0}); // Column-major output.
  ASSERT_EQ(
      runProgram(programText({&x, &y}, {{"add", {0, 1}, F32}, {"sin", {2}, F32}}), {&x, &y}, got),
      "");
  expectSameBits(got, *want);
}

TEST(FusedProgram, ScalarImmediates) {
  TestTensor x(F32, {1100}, mixed(1100, 15)), two(F32, {}, {2.5}), one(F16, {}, {1.0});
  checkChain({&x, &two, &one},
             {{"multiply", {0, 1}, F32}, {"astype", {3}, F16}, {"add", {4, 2}, F16}},
             {{1, "0x1.4p+1"}, {2, "1"}});
  TestTensor i(I32, {5}, {1, 2, 3, 4, 5}), k(I32, {}, {-3});
  checkChain({&i, &k}, {{"multiply", {0, 1}, I32}, {"abs", {2}, I32}}, {{1, "-3"}});
}

TEST(FusedProgram, LargeOutputIsStreamed) {
  // Past 16 MiB the output is written with non-temporal stores; an odd
  // length covers the unaligned tail.
  int64_t n = (int64_t(4) << 20) + 3;
  TestTensor x(F32, {n}, mixed(n, 16)), y(F32, {1}, {0.75});
  checkChain({&x, &y}, {{"multiply", {0, 1}, F32}, {"nn.relu", {2}, F32}});
}

TEST(FusedProgram, ZeroDimAndEmptyOutputs) {
  TestTensor a(F32, {}, {1.5}), b(F32, {}, {-2.0});
  checkChain({&a, &b}, {{"add", {0, 1}, F32}, {"exp", {2}, F32}});
  TestTensor e(F32, {0, 4}), f(F32, {4}, {1, 2, 3, 4});
  TestTensor out(F32, {0, 4});
  EXPECT_EQ(
      runProgram(programText({&e, &f}, {{"add", {0, 1}, F32}, {"exp", {2}, F32}}), {&e, &f}, out),
      "");
}

TEST(FusedProgram, RunErrorsNameTheArgument) {
  TestTensor x(F32, {4}), y(F32, {4}), wide(F32, {3}), i(I32, {4}), out(F32, {4});
  std::string prog = "fused 2\ninput %0 float32 1\ninput %1 float32 1\n"
                     "%2 = add float32 %0 %1\n%3 = exp float32 %2\noutput %3\n";
  EXPECT_EQ(runProgram(prog, {&x, &y}, out), "");
  EXPECT_NE(runProgram(prog, {&x}, out).find("input"), std::string::npos);
  EXPECT_NE(runProgram(prog, {&x, &i}, out).find("input 1 has dtype int32, expected float32"),
            std::string::npos)
      << runProgram(prog, {&x, &i}, out);
  EXPECT_NE(runProgram(prog, {&x, &wide}, out).find("input 1"), std::string::npos);
  TestTensor iout(I32, {4});
  EXPECT_NE(runProgram(prog, {&x, &y}, iout).find("output 0 has dtype int32"), std::string::npos);
  TestTensor x2(F32, {2, 2});
  EXPECT_NE(runProgram(prog, {&x2, &y}, out).find("input 0 has rank 2, expected 1"),
            std::string::npos);
}

TEST(FusedProgram, NeedsItsWorkspace) {
  auto p = parseFusedProgram("fused 2\ninput %0 float32 1\n%1 = exp float32 %0\n"
                             "%2 = sin float32 %1\noutput %2\n");
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  TestTensor x(F32, {3}, {1, 2, 3}), out(F32, {3});
  std::vector<DLTensor *> in{x.dl()}, outs{out.dl()};
  KernelArgs args{in, outs, {}, {}};
  // Alignment slack, three 8 KiB node tiles (the load, exp, sin; no
  // conversion), three node pointers, the shapes of three registers of
  // rank 1, the shape and the odometer of one dim, the strides and base
  // pointers of two operands (the output and the load).
  size_t bytes = fusedProgramWorkspaceBytes(**p, args);
  EXPECT_EQ(bytes, 64 + 3 * 8192 + 3 * 8 + 3 * 8 + 2 * 8 + 2 * 8 + 2 * 8);
  std::vector<char> ws(bytes - 1);
  args.workspace = {ws.data(), ws.size()};
  llvm::Error err = runFusedProgram(**p, args, "graft.fused.test");
  EXPECT_EQ(llvm::toString(std::move(err)), "graft.fused.test: needs a workspace of " +
                                                std::to_string(bytes) + " bytes, got " +
                                                std::to_string(bytes - 1));
}

TEST(FusedProgram, DamagedProgramsAreParseErrors) {
  const std::pair<const char *, const char *> cases[] = {
      {"", "line 1: expected the header 'fused 2'"},
      {"fused 1\n", "line 1: expected the header 'fused 2'"},
      {"fused 2\n", "the program has no output line"},
      {"fused 2\ninput %1 float32 1\n", "line 2: expected %0"},
      {"fused 2\ninput %0 float99 1\n", "line 2: unknown dtype 'float99'"},
      {"fused 2\ninput %0 float32 x\n", "line 2: expected a rank from 0 to 64, got 'x'"},
      {"fused 2\ninput %0 float32 1\n%1 = frobnicate float32 %0\n", "unknown op 'frobnicate'"},
      {"fused 2\ninput %0 float32 1\n%1 = add float32 %0\n", "'add' takes 2 operands, got 1"},
      {"fused 2\ninput %0 float32 1\n%1 = exp float32 %5\n",
       "line 3: register %5 is used before it is defined"},
      {"fused 2\ninput %0 int32 1\n%1 = exp int32 %0\n", "'exp' does not take int32"},
      {"fused 2\ninput %0 float32 1\n%1 = exp float16 %0\n",
       "'exp' keeps its operand's dtype: float32, not float16"},
      {"fused 2\ninput %0 float32 1\ninput %1 int32 1\n%2 = add float32 %0 %1\n",
       "'add' operand 1 has dtype int32, expected float32"},
      {"fused 2\ninput %0 float32 1\n%1 = less float32 %0 %0\n", "'less' gives bool, not float32"},
      {"fused 2\ninput %0 bool 1\n%1 = add bool %0 %0\n", "'add' does not take bool"},
      {"fused 2\ninput %0 float32 1\n%1 = left_shift float32 %0 %0\n",
       "'left_shift' does not take float32"},
      {"fused 2\ninput %0 float32 1\nconst %1 float32 abc\n", "expected a number, got 'abc'"},
      {"fused 2\ninput %0 bool 1\nconst %1 bool 2\n", "a bool constant is 0 or 1"},
      {"fused 2\ninput %0 float32 1\n%1 = exp float32 %0\ninput %2 float32 1\n",
       "before any const or op line"},
      {"fused 2\ninput %0 float32 1\n%1 = exp float32 %0\noutput %1\n%2 = exp float32 %1\n",
       "line 5: only output lines may follow an output line"},
      {"fused 2\ninput %0 float32 1\noutput %0\n", "an output must be the register of an op line"},
      {"fused 2\ninput %0 float32 1\n%1 exp float32 %0\n", "expected '%N = OP DTYPE OPERANDS"},
  };
  for (const auto &[text, want] : cases) {
    llvm::Expected<std::shared_ptr<const FusedProgram>> p = parseFusedProgram(text);
    ASSERT_FALSE(p) << text;
    std::string got = llvm::toString(p.takeError());
    EXPECT_NE(got.find(want), std::string::npos) << "program:\n" << text << "\ngot: " << got;
    EXPECT_EQ(got.rfind("fused kernel program, line ", 0), 0u) << got;
  }
}

TEST(FusedProgram, CommentsAndBlankLinesAreSkipped) {
  llvm::Expected<std::shared_ptr<const FusedProgram>> p = parseFusedProgram(
      "# fused_exp_sin\nfused 2\n\ninput %0 float32 1\n# body\n%1 = exp float32 %0\n"
      "%2 = sin float32 %1\noutput %2\n");
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  EXPECT_EQ(fusedProgramInputs(**p), 1u);
}

} // namespace
