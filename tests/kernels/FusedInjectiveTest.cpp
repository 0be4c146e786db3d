//===- tests/kernels/FusedInjectiveTest.cpp - Fused programs with injective ops ===//
//
// Programs of format 2 with injective ops, clip and several outputs give
// exactly the bits of their ops' own kernels run one by one: every test
// runs both (the registry kernels with their attributes, each intermediate
// materialized) and compares the output bytes; both walks of the evaluator
// (strided views and per-element coordinates) are covered.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/FusedKernel.h"

#include <string>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

/// Runs a program; "" on success, else the error.
std::string runFused(const std::string &text, std::vector<TestTensor *> inputs,
                     std::vector<TestTensor *> outputs) {
  llvm::Expected<std::shared_ptr<const FusedProgram>> program = parseFusedProgram(text);
  if (!program)
    return llvm::toString(program.takeError());
  std::vector<DLTensor *> in, out;
  for (TestTensor *t : inputs)
    in.push_back(t->dl());
  for (TestTensor *t : outputs)
    out.push_back(t->dl());
  KernelArgs args{in, out, {}, {}};
  std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
  args.workspace = {ws.data(), ws.size()};
  llvm::Error err = runFusedProgram(**program, args, "graft.fused.test");
  return err ? llvm::toString(std::move(err)) : "";
}

std::string parseError(const std::string &text) {
  auto p = parseFusedProgram(text);
  return p ? "" : llvm::toString(p.takeError());
}

void expectSameBits(const TestTensor &got, const TestTensor &want) {
  TestTensor g(got), w(want); // Contiguous copies.
  ASSERT_EQ(g.shape, w.shape);
  size_t bytes = size_t(g.numel()) * (g.dl()->dtype.bits / 8);
  ASSERT_EQ(std::memcmp(g.dl()->data, w.dl()->data, bytes), 0)
      << "got " << ::testing::PrintToString(g.values()) << "\nwant "
      << ::testing::PrintToString(w.values());
}

/// Deterministic values of both signs, not all representable in half types.
std::vector<double> values(int64_t n, double scale = 0.37) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(double((i * 7) % 11 - 5) * scale);
  return v;
}

TEST(FusedInjective, PermuteThenElementwiseFromATransposedInput) {
  // c = exp(permute_dims(x, [0, 2, 1]) + y), x stored transposed.
  TestTensor x(F32, {2, 3, 4}, values(24), {2, 0, 1}), y(F32, {4, 3}, values(12, 0.11));
  TestTensor a(F32, {2, 4, 3}), b(F32, {2, 4, 3}), want(F32, {2, 4, 3}), got(F32, {2, 4, 3});
  RUN_OK("graft.permute_dims", {&x}, {&a}, {Ints{0, 2, 1}});
  RUN_OK("graft.add", {&a, &y}, {&b});
  RUN_OK("graft.exp", {&b}, {&want});
  ASSERT_EQ(runFused("fused 2\ninput %0 float32 3\ninput %1 float32 2\n"
                     "%2 = permute_dims float32 %0 axes=0,2,1\n%3 = add float32 %2 %1\n"
                     "%4 = exp float32 %3\noutput %4\n",
                     {&x, &y}, {&got}),
            "");
  expectSameBits(got, want);
}

TEST(FusedInjective, ReshapeOfACompactInputAndOfAPermutedValue) {
  // r = reshape(x, (3, 4)) + b reads x as a strided view; q = reshape(permute(x)) needs
  // coordinates per element; out = r * q, in float16.
  TestTensor x(F16, {2, 6}, values(12)), b(F16, {4}, values(4, 0.5));
  TestTensor r0(F16, {3, 4}), r(F16, {3, 4}), p(F16, {6, 2}), q(F16, {3, 4}), want(F16, {3, 4});
  RUN_OK("graft.reshape", {&x}, {&r0});
  RUN_OK("graft.add", {&r0, &b}, {&r});
  RUN_OK("graft.permute_dims", {&x}, {&p}, {Ints{1, 0}});
  RUN_OK("graft.reshape", {&p}, {&q});
  RUN_OK("graft.multiply", {&r, &q}, {&want});
  std::string head = "fused 2\ninput %0 float16 2\ninput %1 float16 1\n"
                     "%2 = reshape float16 %0 shape=3,?\n%3 = add float16 %2 %1\n";
  TestTensor got(F16, {3, 4});
  ASSERT_EQ(runFused(head + "%4 = permute_dims float16 %0 axes=1,0\n"
                            "%5 = reshape float16 %4 shape=3,%1.0\n"
                            "%6 = multiply float16 %3 %5\noutput %6\n",
                     {&x, &b}, {&got}),
            "");
  expectSameBits(got, want);
  // The strided-view walk alone: reshape of the compact input only.
  TestTensor got2(F16, {3, 4});
  ASSERT_EQ(runFused(head + "output %3\n", {&x, &b}, {&got2}), "");
  expectSameBits(got2, r);
}

TEST(FusedInjective, SliceSqueezeExpandBroadcastInInt32) {
  // x (5, 1, 3): slice axes 0 (4 down to 1, step -2) and 2 (step 2), squeeze, expand,
  // broadcast to (3, 2, 2), add y (3, 1, 1), then clip to [-2, 2.9] (truncated to 2).
  TestTensor x =
      TestTensor::ints(I32, {5, 1, 3}, {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15});
  TestTensor y = TestTensor::ints(I32, {3, 1, 1}, {-7, 0, 9});
  TestTensor s(I32, {2, 1, 2}), q(I32, {2, 2}), e(I32, {1, 2, 2}), b(I32, {3, 2, 2}),
      a(I32, {3, 2, 2}), want(I32, {3, 2, 2}), got(I32, {3, 2, 2});
  RUN_OK("graft.strided_slice", {&x}, {&s}, {Ints{0, 2}, Ints{4, 0}, Ints{0, 3}, Ints{-2, 2}});
  RUN_OK("graft.squeeze", {&s}, {&q}, {Ints{1}});
  RUN_OK("graft.expand_dims", {&q}, {&e}, {Ints{0}});
  RUN_OK("graft.broadcast_to", {&e}, {&b});
  RUN_OK("graft.add", {&b, &y}, {&a});
  RUN_OK("graft.clip", {&a}, {&want}, {-2.0, 2.9});
  ASSERT_EQ(runFused("fused 2\ninput %0 int32 3\ninput %1 int32 3\n"
                     "%2 = strided_slice int32 %0 axes=0,2 begin=4,0 end=0,3 strides=-2,2\n"
                     "%3 = squeeze int32 %2 axes=1\n%4 = expand_dims int32 %3 axes=0\n"
                     "%5 = broadcast_to int32 %4 shape=%1.0,2,2\n%6 = add int32 %5 %1\n"
                     "%7 = clip int32 %6 min=-0x1p+1 max=0x1.7333333333333p+1\noutput %7\n",
                     {&x, &y}, {&got}),
            "");
  expectSameBits(got, want);
}

TEST(FusedInjective, OneElementSlicesWithHugeStepsDoNotOverflow) {
  // Steps up to 2^62 are valid; a slice they leave one element of never steps, so neither the
  // index map nor the byte strides multiply them (UBSan builds caught the product before).
  TestTensor x(F64, {3, 4}, values(12)), y(F64, {1, 1}, {0.5});
  TestTensor got(F64, {1, 1}), cat(F64, {2, 1});
  const std::string slice = "%2 = strided_slice float64 %0 axes=0,1 begin=2,-1 end=3,-5 "
                            "strides=4611686018427387903,-4611686018427387904\n";
  // The affine walk: x[2, 3], negated.
  ASSERT_EQ(runFused("fused 2\ninput %0 float64 2\ninput %1 float64 2\n" + slice +
                         "%3 = negative float64 %2\noutput %3\n",
                     {&x, &y}, {&got}),
            "");
  EXPECT_EQ(got.values(), std::vector<double>{-x.values()[11]});
  // The coordinate walk (a concat selects per element): x[2, 3] then y.
  ASSERT_EQ(runFused("fused 2\ninput %0 float64 2\ninput %1 float64 2\n" + slice +
                         "%3 = concat float64 %2 %1 axis=0\noutput %3\n",
                     {&x, &y}, {&cat}),
            "");
  EXPECT_EQ(cat.values(), (std::vector<double>{x.values()[11], 0.5}));
}

TEST(FusedInjective, TakeInEachModeAfterAnElementwiseOp) {
  TestTensor x(F32, {4, 3}, values(12));
  for (auto [mode, idxValues] :
       {std::pair<std::string, std::vector<int64_t>>{"fast", {3, -1, 0, -4}},
        {"wrap", {7, -5, 2, 12}},
        {"clip", {9, -3, 1, 2}}}) {
    TestTensor idx = TestTensor::ints(I64, {2, 2}, idxValues);
    TestTensor n(F32, {4, 3}), t(F32, {2, 2, 3}), want(F32, {2, 2, 3}), got(F32, {2, 2, 3});
    RUN_OK("graft.negative", {&x}, {&n});
    RUN_OK("graft.take", {&n, &idx}, {&t}, {int64_t(0), mode});
    RUN_OK("graft.sigmoid", {&t}, {&want});
    ASSERT_EQ(runFused("fused 2\ninput %0 float32 2\ninput %1 int64 2\n"
                       "%2 = negative float32 %0\n%3 = take float32 %2 %1 axis=0 mode=" +
                           mode + "\n%4 = sigmoid float32 %3\noutput %4\n",
                       {&x, &idx}, {&got}),
              "")
        << mode;
    expectSameBits(got, want);
  }
  // Indices of another dtype, along the last axis, computed in the group (astype).
  TestTensor i8 = TestTensor::ints(dt(ScalarType::Int8), {3}, {2, 0, -2});
  TestTensor i32(I32, {3}), t(F32, {4, 3}), want(F32, {4, 3}), got(F32, {4, 3});
  RUN_OK("graft.astype", {&i8}, {&i32});
  RUN_OK("graft.take", {&x, &i32}, {&t}, {int64_t(1), std::string("fast")});
  RUN_OK("graft.exp", {&t}, {&want});
  ASSERT_EQ(runFused("fused 2\ninput %0 float32 2\ninput %1 int8 1\n"
                     "%2 = astype int32 %1\n%3 = take float32 %0 %2 axis=1 mode=fast\n"
                     "%4 = exp float32 %3\noutput %4\n",
                     {&x, &i8}, {&got}),
            "");
  expectSameBits(got, want);
  // An index out of range in mode fast is the kernel's error.
  TestTensor bad = TestTensor::ints(I64, {2}, {1, 4}), o(F32, {2, 3});
  EXPECT_EQ(runFused("fused 2\ninput %0 float32 2\ninput %1 int64 1\n"
                     "%2 = take float32 %0 %1 axis=0 mode=fast\n%3 = exp float32 %2\noutput %3\n",
                     {&x, &bad}, {&o}),
            "graft.fused.test: %2 (take): index 4 is out of range for a dim of 4");
}

TEST(FusedInjective, ConcatWithAnEmptyBranchInBFloat16) {
  TestTensor a(BF16, {2, 3}, values(6)), e(BF16, {2, 0}), c(BF16, {2, 2}, values(4, 1.3));
  TestTensor ea(BF16, {2, 3}), cat(BF16, {2, 5}), want(BF16, {2, 5}), got(BF16, {2, 5});
  RUN_OK("graft.exp", {&a}, {&ea});
  RUN_OK("graft.concat", {&ea, &e, &c}, {&cat}, {int64_t(1)});
  RUN_OK("graft.tanh", {&cat}, {&want});
  ASSERT_EQ(runFused("fused 2\ninput %0 bfloat16 2\ninput %1 bfloat16 2\ninput %2 bfloat16 2\n"
                     "%3 = exp bfloat16 %0\n%4 = concat bfloat16 %3 %1 %2 axis=1\n"
                     "%5 = tanh bfloat16 %4\noutput %5\n",
                     {&a, &e, &c}, {&got}),
            "");
  expectSameBits(got, want);
  // Along the outer axis, into a transposed output.
  TestTensor b(BF16, {1, 3}, values(3, 2.0)), want0(BF16, {3, 3}), got0(BF16, {3, 3}, {}, {1, 0});
  RUN_OK("graft.concat", {&a, &b}, {&want0}, {int64_t(0)});
  ASSERT_EQ(runFused("fused 2\ninput %0 bfloat16 2\ninput %1 bfloat16 2\n"
                     "%2 = concat bfloat16 %0 %1 axis=0\n%3 = abs bfloat16 %2\noutput %3\n",
                     {&a, &b}, {&got0}),
            "");
  TestTensor absWant(BF16, {3, 3});
  RUN_OK("graft.abs", {&want0}, {&absWant});
  expectSameBits(got0, absWant);
}

TEST(FusedInjective, SeveralOutputsShareTheIndexSpace) {
  // a = exp(x) is an output and read by b = sin(permute(a)) + a (square shapes).
  TestTensor x(F32, {3, 3}, values(9));
  TestTensor a(F32, {3, 3}), p(F32, {3, 3}), s(F32, {3, 3}), b(F32, {3, 3});
  RUN_OK("graft.exp", {&x}, {&a});
  RUN_OK("graft.permute_dims", {&a}, {&p}, {Ints{1, 0}});
  RUN_OK("graft.sin", {&p}, {&s});
  RUN_OK("graft.add", {&s, &a}, {&b});
  TestTensor ga(F32, {3, 3}), gb(F32, {3, 3}, {}, {1, 0});
  ASSERT_EQ(runFused("fused 2\ninput %0 float32 2\n%1 = exp float32 %0\n"
                     "%2 = permute_dims float32 %1 axes=1,0\n%3 = sin float32 %2\n"
                     "%4 = add float32 %3 %1\noutput %1\noutput %4\n",
                     {&x}, {&ga, &gb}),
            "");
  expectSameBits(ga, a);
  expectSameBits(gb, b);
}

TEST(FusedInjective, LargeTensorsCrossTiles) {
  // 3 x 1500 elements: tiles of 1024 cross rows in the coordinate walk.
  TestTensor x(F32, {1500, 3}, values(4500)), y(F32, {3, 1500}, values(4500, 0.2));
  TestTensor p(F32, {3, 1500}), cat(F32, {6, 1500}), want(F32, {6, 1500}), got(F32, {6, 1500});
  RUN_OK("graft.permute_dims", {&x}, {&p}, {Ints{1, 0}});
  RUN_OK("graft.concat", {&p, &y}, {&cat}, {int64_t(0)});
  RUN_OK("graft.square", {&cat}, {&want});
  ASSERT_EQ(runFused("fused 2\ninput %0 float32 2\ninput %1 float32 2\n"
                     "%2 = permute_dims float32 %0 axes=1,0\n%3 = concat float32 %2 %1 axis=0\n"
                     "%4 = square float32 %3\noutput %4\n",
                     {&x, &y}, {&got}),
            "");
  expectSameBits(got, want);
}

TEST(FusedInjective, ShapeErrorsNameTheRegister) {
  TestTensor x(F32, {2, 3}), o(F32, {4, 2}), o3(F32, {3, 2});
  EXPECT_EQ(runFused("fused 2\ninput %0 float32 2\n%1 = reshape float32 %0 shape=4,2\n"
                     "%2 = exp float32 %1\noutput %2\n",
                     {&x}, {&o}),
            "graft.fused.test: %1 (reshape): cannot reshape [2, 3] (6 elements) to [4, 2]");
  TestTensor o1(F32, {3});
  EXPECT_EQ(runFused("fused 2\ninput %0 float32 2\n%1 = squeeze float32 %0 axes=0\n"
                     "%2 = exp float32 %1\noutput %2\n",
                     {&x}, {&o1}),
            "graft.fused.test: %1 (squeeze): dim 0 of [2, 3] is not 1");
  EXPECT_EQ(runFused("fused 2\ninput %0 float32 2\n%1 = exp float32 %0\noutput %1\n", {&x}, {&o3}),
            "graft.fused.test: output 0 has shape [3, 2], expected [2, 3]");
  // Shapes whose element count does not fit in int64 are refused before any index is formed.
  TestTensor e(F32, {0, 3}), eo(F32, {0, 3});
  EXPECT_EQ(runFused("fused 2\ninput %0 float32 2\n"
                     "%1 = broadcast_to float32 %0 shape=4294967296,4294967296,0,3\n"
                     "%2 = reshape float32 %1 shape=0,3\n%3 = exp float32 %2\noutput %3\n",
                     {&e}, {&eo}),
            "graft.fused.test: %1 (broadcast_to): the shape [4294967296, 4294967296]... is too "
            "large");
  TestTensor a(F32, {2, 3}), b(F32, {3, 3}), cat(F32, {5, 3});
  EXPECT_EQ(
      runFused("fused 2\ninput %0 float32 2\ninput %1 float32 2\n"
               "%2 = concat float32 %0 %1 axis=1\n%3 = exp float32 %2\noutput %3\n",
               {&a, &b}, {&cat}),
      "graft.fused.test: %2 (concat): operand shapes [2, 3] and [3, 3] differ outside axis 1");
}

TEST(FusedInjective, DamagedAttributesAreParseErrors) {
  const std::pair<const char *, const char *> cases[] = {
      {"%1 = permute_dims float32 %0 axes=0,0\n", "axes must be a permutation of the 2 dims"},
      {"%1 = permute_dims float32 %0\n", "'permute_dims' needs the attribute 'axes'"},
      {"%1 = permute_dims float32 %0 axes=1,0 axes=1,0\n", "attribute 'axes' is given twice"},
      {"%1 = permute_dims float32 %0 axes=1,0 k=1\n", "'permute_dims' has no attribute 'k'"},
      {"%1 = permute_dims float32 %0 axes=1,x\n", "expected integers, got '1,x'"},
      {"%1 = exp float32 %0 axes=1\n", "'exp' has no attribute 'axes'"},
      {"%1 = reshape float32 %0 shape=?,?\n", "infers at most one dim"},
      {"%1 = reshape float32 %0 shape=%0.5\n", "'%0.5' names no dim of %0"},
      {"%1 = reshape float32 %0 shape=%9.0\n", "register %9 is used before it is defined"},
      {"%1 = reshape float32 %0 shape=-3\n", "expected dims (N, ? or %R.K), got '-3'"},
      {"%1 = broadcast_to float32 %0 shape=?,2\n", "cannot infer a dim"},
      {"%1 = broadcast_to float32 %0 shape=2\n", "cannot broadcast rank 2 to rank 1"},
      {"%1 = expand_dims float32 %0 axes=3\n", "axes must be increasing and in [0, 3)"},
      {"%1 = squeeze float32 %0 axes=1,0\n", "axes must be increasing"},
      {"%1 = strided_slice float32 %0 axes=0 begin=0 end=1 strides=0\n", "a stride is 0"},
      {"%1 = strided_slice float32 %0 axes=0 begin=0 end=1 strides=-9223372036854775808\n",
       "a stride is out of range"},
      {"%1 = strided_slice float32 %0 axes=0,1 begin=0 end=1 strides=1\n", "one entry per axis"},
      {"%1 = strided_slice float32 %0 axes=0,0 begin=0,0 end=1,1 strides=1,1\n",
       "axes must be increasing"},
      {"%1 = take float32 %0 %0 axis=0 mode=fast\n", "indices must be integers, got float32"},
      {"%1 = concat float32 axis=0\n", "'concat' takes at least 1 operands, got 0"},
      {"%1 = concat float32 %0 %0 axis=2\n", "axis must be in [0, 2)"},
      {"%1 = clip float32 %0 min=0 max=x\n", "attribute 'max': expected a number, got 'x'"},
      {"%1 = permute_dims float16 %0 axes=1,0\n", "keeps its operand's dtype"},
      {"%1 = exp float32 %0\n%2 = exp float32 %1\noutput %2\noutput %2\n", "is output twice"},
      {"%1 = exp float32 %0\n%2 = reshape float32 %1 shape=?\noutput %2\noutput %1\n",
       "outputs have one rank"},
  };
  for (const auto &[body, want] : cases) {
    std::string text = std::string("fused 2\ninput %0 float32 2\n") + body;
    if (!llvm::StringRef(body).contains("output"))
      text += "output %1\n";
    std::string got = parseError(text);
    EXPECT_NE(got.find(want), std::string::npos) << text << "\ngot: " << got;
    EXPECT_EQ(got.rfind("fused kernel program, line ", 0), 0u) << got;
  }
  // take's index tensor needs an integer dtype; a register read in too many index spaces
  // (a concat of itself, nested) is refused.
  std::string text = "fused 2\ninput %0 float32 1\n";
  for (int i = 1; i <= 6; ++i)
    text += "%" + std::to_string(i) + " = concat float32 %" + std::to_string(i - 1) + " %" +
            std::to_string(i - 1) + " axis=0\n";
  text += "output %6\n";
  EXPECT_NE(parseError(text).find("register %0 is read in more than 16 index spaces"),
            std::string::npos)
      << parseError(text);
}

} // namespace

namespace {

/// A small tensor of `dtype` and `rank` (dims 2, 1, 3, ...), values in range for take.
TestTensor smallTensor(DLDataType dtype, int64_t rank, int64_t salt) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back((d + salt) % 3 + 1);
  std::vector<double> v(64);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = double(i % 2);
  return TestTensor(dtype, shape, v);
}

TEST(FusedInjective, DamagedProgramsNeverCrash) {
  // Byte mutations of valid programs: each parses to an error or runs (to a result or an
  // error) on small inputs of the declared dtypes and ranks; nothing may crash.
  const std::string programs[] = {
      "fused 2\ninput %0 float32 3\ninput %1 float32 1\ninput %2 float32 3\ninput %3 int64 1\n"
      "const %4 float32 0x1.8p+1\n%5 = add float32 %0 %1\n"
      "%6 = permute_dims float32 %5 axes=0,2,1\n%7 = exp float32 %6\n"
      "%8 = concat float32 %7 %2 axis=2\n%9 = reshape float32 %8 shape=%0.0,?\n"
      "%10 = take float32 %9 %3 axis=1 mode=clip\n%11 = clip float32 %10 min=0x0p+0 max=0x1p+1\n"
      "%12 = strided_slice float32 %11 axes=1 begin=2 end=0 strides=-1\n"
      "%13 = expand_dims float32 %12 axes=0\n%14 = multiply float32 %13 %4\noutput %14\n",
      "fused 2\ninput %0 int32 2\n%1 = squeeze int32 %0 axes=1\n%2 = expand_dims int32 %1 axes=0\n"
      "%3 = broadcast_to int32 %2 shape=3,%0.0\n%4 = negative int32 %3\noutput %4\noutput %3\n",
  };
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  const char alphabet[] = "0123456789%,.=?- \nabcdefgilmnoprstxz";
  int parsed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text = programs[iter % 2];
    for (int m = 0, count = 1 + int(next() % 2); m < count; ++m)
      text[next() % text.size()] = alphabet[next() % (sizeof(alphabet) - 1)];
    auto p = parseFusedProgram(text);
    if (!p) {
      llvm::consumeError(p.takeError());
      continue;
    }
    ++parsed;
    // Inputs as declared; outputs of each rank, 1 to 3 wide.
    std::vector<std::unique_ptr<TestTensor>> owned;
    std::vector<TestTensor *> ins, outs;
    llvm::SmallVector<llvm::StringRef, 16> lines;
    llvm::StringRef(text).split(lines, '\n');
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef, 4> tok;
      line.split(tok, ' ', -1, false);
      if (tok.size() == 4 && tok[0] == "input") {
        int64_t rank = 0;
        tok[3].getAsInteger(10, rank);
        DLDataType t = tok[2] == "int64" ? I64 : tok[2] == "int32" ? I32 : F32;
        owned.push_back(std::make_unique<TestTensor>(
            smallTensor(t, std::min<int64_t>(rank, 4), int64_t(next() % 3))));
        ins.push_back(owned.back().get());
      }
    }
    for (size_t o = 0; o < fusedProgramOutputs(**p); ++o) {
      owned.push_back(std::make_unique<TestTensor>(smallTensor(F32, 3, int64_t(next() % 3))));
      outs.push_back(owned.back().get());
    }
    (void)runFused(text, ins, outs); // An error is fine; a crash is not.
  }
  EXPECT_GT(parsed, 200);
}

} // namespace
