//===- tests/kernels/FusedCudaTest.cpp - Fused programs as CUDA C++ (no GPU) ---===//
//
// The generated source's text and the launch plan; both are plain host
// code, so CI checks them without a GPU. tests/cuda/FusedCudaTest.cpp
// compiles the sources with NVRTC and runs them against the CPU evaluator.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/FusedCuda.h"
#include "kernels/FusedKernel.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

std::shared_ptr<const FusedProgram> parse(llvm::StringRef text) {
  auto p = parseFusedProgram(text);
  EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError());
  return p ? *p : nullptr;
}

std::string source(const FusedProgram &p) {
  auto src = fusedProgramCudaSource(p);
  EXPECT_TRUE(bool(src)) << llvm::toString(src.takeError());
  return src ? *src : "";
}

/// The generated text after the embedded headers.
std::string programPart(const FusedProgram &p) {
  std::string src = source(p);
  size_t at = src.find("// ---- the fused program");
  EXPECT_NE(at, std::string::npos);
  return at == std::string::npos ? src : src.substr(at);
}

bool contains(llvm::StringRef text, llvm::StringRef part) { return text.contains(part); }

const char *kMixed = "fused 2\n"
                     "input %0 float32 2\n"
                     "input %1 bool 1\n"
                     "const %2 float32 0x1.4p+1\n"
                     "%3 = add float32 %0 %1\n"
                     "%4 = multiply float32 %3 %2\n"
                     "%5 = less bool %4 %0\n"
                     "%6 = where float32 %5 %4 %1\n"
                     "%7 = astype float16 %6\n"
                     "output %7\n";

TEST(FusedCudaSource, OneStatementPerRegister) {
  auto p = parse(kMixed);
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  EXPECT_TRUE(contains(text, "__device__ inline void body(Compute<__half> &o0, Compute<float> r0, "
                             "Compute<bool> r1) {"))
      << text;
  // The immediate by its bits (2.5), rounded to its dtype as the CPU parser does.
  EXPECT_TRUE(contains(
      text, "const Compute<float> r2 = roundTo<float>(castTo<Compute<float>>(__longlong_as_double("
            "0x4004000000000000LL)));"))
      << text;
  // A bool operand of arithmetic is converted first, as the CPU evaluator does.
  EXPECT_TRUE(contains(text, "const Compute<float> r3 = row<ops::Add, float, float>(r0, "
                             "convert<float, bool>(r1));"))
      << text;
  EXPECT_TRUE(contains(text, "const Compute<float> r4 = row<ops::Multiply, float, float>(r3, r2);"))
      << text;
  EXPECT_TRUE(contains(text, "const Compute<bool> r5 = row<ops::Less, float, bool>(r4, r0);"))
      << text;
  EXPECT_TRUE(contains(text, "const Compute<float> r6 = where<float>(r5, r4, convert<float, "
                             "bool>(r1));"))
      << text;
  EXPECT_TRUE(contains(text, "const Compute<__half> r7 = convert<__half, float>(r6);")) << text;
  EXPECT_TRUE(contains(text, "o0 = r7;")) << text;
}

TEST(FusedCudaSource, TwoKernelsOverTheOperands) {
  auto p = parse(kMixed);
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  EXPECT_TRUE(contains(text, "graft_fused_flat(FusedParams<3> p)")) << text;
  EXPECT_TRUE(contains(text, "graft_fused_strided(FusedParams<3> p)")) << text;
  // Widest operand 4 bytes: four elements per thread.
  EXPECT_TRUE(contains(text, "constexpr int V = 4;")) << text;
  EXPECT_TRUE(contains(text, "const Vec<bool, V> a1 = reinterpret_cast<const Vec<bool, V> "
                             "*>(p.data[2])[i];"))
      << text;
  EXPECT_TRUE(contains(text, "loadElem(reinterpret_cast<const float *>(p.data[1] + off[1]))"))
      << text;
  EXPECT_TRUE(contains(text, "body(v0, loadElem(reinterpret_cast<const float *>(p.data[1] + "
                             "off[1])), loadElem(reinterpret_cast<const bool *>(p.data[2] + "
                             "off[2])));"))
      << text;
  EXPECT_TRUE(contains(text, "storeElem(reinterpret_cast<__half *>(p.data[0] + off[0]), v0);"))
      << text;
}

TEST(FusedCudaSource, EmbedsTheDeviceHeaders) {
  auto p = parse(kMixed);
  ASSERT_TRUE(p);
  std::string src = source(*p);
  // The op table's rows, the scalar layer and NVRTC's stand-ins are all in
  // the text: NVRTC gets no include path.
  EXPECT_TRUE(contains(src, "GRAFT_BINARY_OP(Add, \"graft.add\", Arithmetic, addC(a, b))"));
  EXPECT_TRUE(contains(src, "template <class To, class From> __host__ __device__ inline To "
                            "castTo(From v)"));
  EXPECT_TRUE(contains(src, "cvt.rn.bf16.f32"));
  EXPECT_TRUE(contains(src, "template <int K> struct FusedParams"));
  EXPECT_FALSE(contains(src, "#include \"kernels/cuda/Scalar.cuh\""));
  // The same program always gives the same text (the cache key).
  EXPECT_EQ(src, source(*p));
}

TEST(FusedCudaSource, SeveralOutputsComeFirst) {
  auto p = parse("fused 2\ninput %0 float32 1\n%1 = exp float32 %0\n%2 = clip float32 %1 "
                 "min=0x0p+0 max=0x1p+1\n%3 = less bool %1 %0\noutput %2\noutput %3\n");
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  EXPECT_TRUE(contains(text, "body(Compute<float> &o0, Compute<bool> &o1, Compute<float> r0)"))
      << text;
  EXPECT_TRUE(contains(text, "clip<float>(r1, __longlong_as_double(0x0000000000000000LL), "
                             "__longlong_as_double(0x4000000000000000LL))"))
      << text;
  EXPECT_TRUE(contains(text, "o0 = r2;\n  o1 = r3;")) << text;
  EXPECT_TRUE(contains(text, "graft_fused_flat(FusedParams<3> p)")) << text;
  EXPECT_TRUE(contains(text, "reinterpret_cast<Vec<bool, V> *>(p.data[1])[i] = w1;")) << text;
  EXPECT_TRUE(contains(text, "reinterpret_cast<const Vec<float, V> *>(p.data[2])[i];")) << text;
}

/// Every injective op, a take in each mode, a three-way concat, symbolic and fixed dims,
/// two outputs.
const char *kIndexMaps = "fused 2\n"
                         "input %0 float32 3\n"
                         "input %1 int32 1\n"
                         "input %2 float32 2\n"
                         "%3 = permute_dims float32 %0 axes=2,0,1\n"
                         "%4 = reshape float32 %3 shape=%0.2,?\n"
                         "%5 = strided_slice float32 %4 axes=1 begin=-1 end=-100 strides=-2\n"
                         "%6 = take float32 %5 %1 axis=1 mode=fast\n"
                         "%7 = expand_dims float32 %6 axes=0\n"
                         "%8 = squeeze float32 %7 axes=0\n"
                         "%9 = concat float32 %8 %2 %8 axis=1\n"
                         "%10 = broadcast_to float32 %9 shape=2,%0.2,%9.1\n"
                         "%11 = clip float32 %10 min=-0x1p+0 max=0x1p+0\n"
                         "%12 = exp float32 %11\n"
                         "output %12\n"
                         "output %10\n";

TEST(FusedCudaSource, IndexMapsAreComputedPerElement) {
  auto p = parse(kIndexMaps);
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  auto has = [&](const std::string &part) {
    EXPECT_TRUE(contains(text, part)) << part << "\n" << text;
  };
  // Two kernels over one parameter block: 2 outputs + 3 inputs, 38 words.
  has("graft_fused_index32(IndexParams<5, 38> p) {\n  using I = int32_t;");
  has("graft_fused_index64(IndexParams<5, 38> p) {\n  using I = int64_t;");
  EXPECT_FALSE(contains(text, "graft_fused_flat"));
  // The output's coordinates; its dim 0 is fixed (broadcast_to shape=2,...), never divided by.
  has("I rest = I(i);\n    const I s0_2 = rest % I(p.w[24]);\n    rest /= I(p.w[24]);");
  has("const I s0_0 = rest;\n    const I s1_0 = s0_0;");
  // broadcast_to's result in the output's space: a run-time dim of 1 reads coordinate 0.
  has("const I s1_1 = (I(p.w[21]) == 1 ? I(0) : s0_1);");
  // concat: the branch its coordinate selects, the later ones shifted by the extents before.
  has("Compute<float> v9_2;\n    if (s3_1 < I(p.w[18])) {");
  has("} else if (s3_1 < I(p.w[18]) + I(p.w[5])) {");
  has("const I s19_1 = s3_1 - I(p.w[18]) - I(p.w[5]);");
  // take (fast): the index value, its range check, negative indices from the end.
  has("const Compute<int32_t> v1_10 = loadOrZero<int32_t>(p.data[3], int64_t(s10_0) * p.w[34]);");
  has("int64_t t11 = int64_t(v1_10);");
  has("if (len == 0 || t11 < -len || t11 >= len) {\n          badIndex(p.bad, p.report, i, 6u, "
      "t11);\n          t11 = 0;\n        } else if (t11 < 0) {\n          t11 += len;");
  has("const I s11_1 = I(t11);");
  // strided_slice: a run-time start, the step a constant.
  has("const I s13_1 = I(p.w[37] + int64_t(-2) * int64_t(s12_1));");
  // reshape: the result's linear index, then the operand's coordinates.
  has("I lin15 = s14_0;\n      lin15 = lin15 * I(p.w[10]) + s14_1;");
  has("const I s15_2r = I(p.w[8]) > 1 ? lin15 % I(p.w[8]) : I(0);");
  // permute_dims (axes 2,0,1) of input 0, read through its byte strides.
  has("const I s17_0 = s16_1;\n      const I s17_1 = s16_2;\n      const I s17_2 = s16_0;");
  has("loadOrZero<float>(p.data[2], int64_t(s17_0) * p.w[31] + int64_t(s17_1) * p.w[32] + "
      "int64_t(s17_2) * p.w[33]);");
  // Elementwise ops on the selected value, then both outputs.
  has("const Compute<float> v12_0 = row<ops::Exp, float, float>(v11_0);");
  has("storeElem(reinterpret_cast<float *>(p.data[0] + int64_t(s0_0) * p.w[25] + int64_t(s0_1) * "
      "p.w[26] + int64_t(s0_2) * p.w[27]), v12_0);");
  has("storeElem(reinterpret_cast<float *>(p.data[1] + int64_t(s0_0) * p.w[28] + int64_t(s0_1) * "
      "p.w[29] + int64_t(s0_2) * p.w[30]), v9_2);");
  // Compared as text: a build need not merge equal string literals into one address.
  std::vector<std::string> entries;
  for (const char *entry : fusedKernelEntries(*p))
    entries.emplace_back(entry);
  EXPECT_EQ(entries, (std::vector<std::string>{kFusedIndex32Kernel, kFusedIndex64Kernel}));
}

TEST(FusedCudaSource, FixedDimsAreConstants) {
  // reshape to a fixed shape: the divisions are by constants, and the fixed start of a slice of
  // a fixed dim is folded; a dim of 1 has coordinate 0.
  auto p = parse("fused 2\ninput %0 float16 2\ninput %1 uint8 1\n"
                 "%2 = reshape float16 %0 shape=6,1,4\n"
                 "%3 = strided_slice float16 %2 axes=0 begin=-1 end=-7 strides=-3\n"
                 "%4 = take float16 %3 %1 axis=2 mode=wrap\noutput %4\n");
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  auto has = [&](const std::string &part) {
    EXPECT_TRUE(contains(text, part)) << part << "\n" << text;
  };
  has("I(int64_t(5) + int64_t(-3) * int64_t(");
  has(" = 0;");
  has("* I(1) + ");
  has("% len) + len) % len;");
  has("const int64_t len = int64_t(I(4));");
  // Wrap mode checks only an empty axis.
  has("if (len == 0) {");
}

TEST(FusedCudaSource, HugeStepsAreExactLiterals) {
  auto p = parse("fused 2\ninput %0 int8 1\n%1 = strided_slice int8 %0 axes=0 begin=-1 end=0 "
                 "strides=-4611686018427387903\noutput %1\n");
  ASSERT_TRUE(p);
  EXPECT_TRUE(contains(programPart(*p), "int64_t(0xc000000000000001ULL) * int64_t("))
      << programPart(*p);
}

TEST(FusedCudaSource, DamagedProgramsNeverCrashTheGenerator) {
  // Byte mutations of a valid index program: each one that parses gets a source or an error;
  // nothing may crash.
  const std::string base = std::string(kIndexMaps);
  uint64_t seed = 99;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  const char alphabet[] = "0123456789%,.=?- \nabcdefgilmnoprstxz";
  int generated = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    std::string text = base;
    text[next() % text.size()] = alphabet[next() % (sizeof(alphabet) - 1)];
    auto p = parseFusedProgram(text);
    if (!p) {
      llvm::consumeError(p.takeError());
      continue;
    }
    auto src = fusedProgramCudaSource(**p);
    if (!src) {
      llvm::consumeError(src.takeError());
      continue;
    }
    ++generated;
  }
  EXPECT_GT(generated, 100);
}

TEST(FusedCudaSource, IntegerImmediatesByTheirBits) {
  auto p = parse("fused 2\ninput %0 int64 1\nconst %1 int64 -3\n%2 = floor_divide int64 %0 %1\n"
                 "output %2\n");
  ASSERT_TRUE(p);
  std::string text = programPart(*p);
  EXPECT_TRUE(contains(text, "castTo<Compute<int64_t>>(int64_t(0xfffffffffffffffdULL))")) << text;
  EXPECT_TRUE(contains(text, "row<ops::FloorDivide, int64_t, int64_t>(r0, r1)")) << text;
}

TEST(FusedCudaSource, VectorWidthIsSixteenBytesOfTheWidestOperand) {
  auto width = [](llvm::StringRef text) {
    auto p = parse(text);
    return p ? fusedVectorWidth(*p) : -1;
  };
  EXPECT_EQ(width("fused 2\ninput %0 float64 1\n%1 = exp float64 %0\noutput %1\n"), 2);
  EXPECT_EQ(width("fused 2\ninput %0 bfloat16 1\n%1 = exp bfloat16 %0\noutput %1\n"), 8);
  EXPECT_EQ(width("fused 2\ninput %0 int8 1\n%1 = greater bool %0 %0\noutput %1\n"), 16);
  // An intermediate's dtype does not count: only what is loaded and stored.
  EXPECT_EQ(width("fused 2\ninput %0 float16 1\n%1 = astype float64 %0\n"
                  "%2 = astype float16 %1\noutput %2\n"),
            8);
}

//===----------------------------------------------------------------------===//
// Launch plans (fake device pointers: planning never reads them)
//===----------------------------------------------------------------------===//

struct FakeTensor {
  std::vector<int64_t> shape, strides;
  DLTensor dl{};
  FakeTensor(DLDataType t, std::vector<int64_t> s, uintptr_t addr, std::vector<int64_t> st = {},
             DLDeviceType dev = kDLCUDA)
      : shape(std::move(s)), strides(std::move(st)) {
    dl.data = reinterpret_cast<void *>(addr);
    dl.device = {dev, 0};
    dl.ndim = int(shape.size());
    dl.dtype = t;
    dl.shape = shape.data();
    dl.strides = strides.empty() ? nullptr : strides.data();
  }
};

const char *kAdd = "fused 2\ninput %0 float32 2\ninput %1 float32 1\n%2 = add float32 %0 %1\n"
                   "%3 = exp float32 %2\noutput %3\n";

llvm::Expected<FusedLaunch> plan(const FusedProgram &p, std::vector<FakeTensor *> ins,
                                 FakeTensor &out) {
  static std::vector<DLTensor *> in, o;
  in.clear();
  o.clear();
  for (FakeTensor *t : ins)
    in.push_back(&t->dl);
  o.push_back(&out.dl);
  return planFusedLaunch(p, KernelArgs{in, o, {}, {}}, "graft.fused.f");
}

// Words of FusedParams<K>: n, ndim, shape[8], data[K], stride[K][8].
int64_t word(const FusedLaunch &l, size_t i) { return l.params.at(i); }
constexpr size_t kData = 2 + kFusedMaxDims;

TEST(FusedCudaPlan, CompactOperandsTakeTheFlatKernel) {
  auto p = parse("fused 2\ninput %0 float32 2\ninput %1 float32 2\n%2 = add float32 %0 %1\n"
                 "output %2\n");
  ASSERT_TRUE(p);
  FakeTensor a(F32, {64, 1000}, 0x10000), b(F32, {64, 1000}, 0x20000),
      out(F32, {64, 1000}, 0x40000);
  auto l = plan(*p, {&a, &b}, out);
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  EXPECT_STREQ(l->kernel, kFusedFlatKernel);
  EXPECT_EQ(l->params.size(), 2 + kFusedMaxDims + 3 + 3 * kFusedMaxDims);
  EXPECT_EQ(word(*l, 0), 64000);
  EXPECT_EQ(word(*l, kData), 0x40000); // The output first.
  EXPECT_EQ(word(*l, kData + 1), 0x10000);
  EXPECT_EQ(word(*l, kData + 2), 0x20000);
  EXPECT_EQ(l->block, kFusedThreads);
  EXPECT_EQ(l->grid, (64000 / 4 + 1 + kFusedThreads - 1) / kFusedThreads);
}

TEST(FusedCudaPlan, BroadcastTakesTheStridedKernelWithCoalescedDims) {
  auto p = parse(kAdd);
  ASSERT_TRUE(p);
  FakeTensor a(F32, {4, 8}, 0x1000), b(F32, {8}, 0x2000), out(F32, {4, 8}, 0x3000);
  auto l = plan(*p, {&a, &b}, out);
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  EXPECT_STREQ(l->kernel, kFusedStridedKernel);
  EXPECT_EQ(word(*l, 0), 32);
  EXPECT_EQ(word(*l, 1), 2);
  EXPECT_EQ(word(*l, 2), 4);
  EXPECT_EQ(word(*l, 3), 8);
  size_t strides = kData + 3;
  auto stride = [&](size_t k, size_t d) { return word(*l, strides + k * kFusedMaxDims + d); };
  EXPECT_EQ(stride(0, 0), 32); // Byte strides.
  EXPECT_EQ(stride(0, 1), 4);
  EXPECT_EQ(stride(1, 0), 32);
  EXPECT_EQ(stride(2, 0), 0); // Broadcast.
  EXPECT_EQ(stride(2, 1), 4);
}

TEST(FusedCudaPlan, MisalignedOrStridedOperandsTakeTheStridedKernel) {
  auto p = parse("fused 2\ninput %0 float32 1\n%1 = exp float32 %0\noutput %1\n");
  ASSERT_TRUE(p);
  FakeTensor a(F32, {100}, 0x1004), out(F32, {100}, 0x2000);
  auto l = plan(*p, {&a}, out);
  ASSERT_TRUE(bool(l));
  EXPECT_STREQ(l->kernel, kFusedStridedKernel);
  FakeTensor s(F32, {100}, 0x1000, {2}), out2(F32, {100}, 0x2000);
  auto l2 = plan(*p, {&s}, out2);
  ASSERT_TRUE(bool(l2));
  EXPECT_STREQ(l2->kernel, kFusedStridedKernel);
  EXPECT_EQ(word(*l2, kData + 2 + kFusedMaxDims), 8); // Input stride 2 elements.
}

TEST(FusedCudaPlan, EmptyOutputLaunchesNothing) {
  auto p = parse(kAdd);
  ASSERT_TRUE(p);
  FakeTensor a(F32, {0, 8}, 0x1000), b(F32, {8}, 0x2000), out(F32, {0, 8}, 0x3000);
  auto l = plan(*p, {&a, &b}, out);
  ASSERT_TRUE(bool(l));
  EXPECT_EQ(l->grid, 0u);
}

std::string planError(const FusedProgram &p, std::vector<FakeTensor *> ins, FakeTensor &out) {
  auto l = plan(p, ins, out);
  return l ? "" : llvm::toString(l.takeError());
}

TEST(FusedCudaPlan, IndexProgramsGetTheirWords) {
  // permute_dims then a slice of a run-time dim: n, the slot and report words (0), the data
  // (outputs first), then the layout's words: the dims read, the byte strides (0 for a dim of 1),
  // the slice's start.
  auto p = parse("fused 2\ninput %0 float32 2\ninput %1 int64 1\n"
                 "%2 = permute_dims float32 %0 axes=1,0\n"
                 "%3 = strided_slice float32 %2 axes=1 begin=-1 end=-100 strides=-1\n"
                 "%4 = take float32 %3 %1 axis=0 mode=clip\noutput %4\n");
  ASSERT_TRUE(p);
  FakeTensor a(F32, {5, 3}, 0x1000), i(I64, {1}, 0x2000), out(F32, {1, 5}, 0x3000);
  auto l = plan(*p, {&a, &i}, out);
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  EXPECT_STREQ(l->kernel, kFusedIndex32Kernel);
  EXPECT_EQ(l->entry, 0u);
  EXPECT_FALSE(l->checksIndices); // clip mode on a non-empty axis cannot fail.
  EXPECT_EQ(l->grid, 1u);
  std::vector<int64_t> want = {5, 0, 0, 0x3000, 0x1000, 0x2000};
  EXPECT_EQ(std::vector<int64_t>(l->params.begin(), l->params.begin() + 6), want);
  // Words: dims of %0 (5, 3), %1 (1), %2 (3, 5), %3 (3, 5), %4 (1, 5); strides of the output
  // (0: a dim of 1, 4), %0 (12, 4), %1 (0); the start 4.
  std::vector<int64_t> words(l->params.begin() + 6, l->params.end());
  EXPECT_EQ(words, (std::vector<int64_t>{5, 3, 1, 3, 5, 3, 5, 1, 5, 0, 4, 12, 4, 0, 4}));
  // An index past the axis in fast mode, or any index of an empty axis, is checked.
  auto fast = parse("fused 2\ninput %0 float32 2\ninput %1 int64 1\n"
                    "%2 = take float32 %0 %1 axis=0 mode=fast\noutput %2\n");
  ASSERT_TRUE(fast);
  FakeTensor out2(F32, {1, 3}, 0x3000);
  auto l2 = plan(*fast, {&a, &i}, out2);
  ASSERT_TRUE(bool(l2)) << llvm::toString(l2.takeError());
  EXPECT_TRUE(l2->checksIndices);
}

TEST(FusedCudaPlan, IndexProgramsTakeInt64CoordinatesPastTwoToThe31) {
  // A register of 2^31 elements (a broadcast of 2): int64 coordinates.
  auto p = parse("fused 2\ninput %0 float32 1\n%1 = broadcast_to float32 %0 shape=1073741824,2\n"
                 "%2 = strided_slice float32 %1 axes=0 begin=0 end=1 strides=1\noutput %2\n");
  ASSERT_TRUE(p);
  FakeTensor a(F32, {2}, 0x1000), out(F32, {1, 2}, 0x2000);
  auto l = plan(*p, {&a}, out);
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  EXPECT_STREQ(l->kernel, kFusedIndex64Kernel);
  EXPECT_EQ(l->entry, 1u);
}

TEST(FusedCudaPlan, IndexProgramsReportTheCpuEvaluatorsErrors) {
  auto p = parse("fused 2\ninput %0 float32 2\n%1 = reshape float32 %0 shape=4,?\noutput %1\n");
  ASSERT_TRUE(p);
  FakeTensor a(F32, {3, 5}, 0x1000), out(F32, {4, 4}, 0x2000);
  EXPECT_EQ(planError(*p, {&a}, out),
            "graft.fused.f: %1 (reshape): cannot reshape [3, 5] (15 elements) to [4, 3]");
  FakeTensor good(F32, {2, 6}, 0x1000), wrong(F32, {4, 4}, 0x2000);
  EXPECT_EQ(planError(*p, {&good}, wrong), "graft.fused.f: output 0 has shape [4, 4], expected "
                                           "[4, 3]");
  // The message of a failed index check, from its slot.
  auto t = parse("fused 2\ninput %0 float32 2\ninput %1 int32 1\n"
                 "%2 = take float32 %0 %1 axis=1 mode=fast\noutput %2\n");
  ASSERT_TRUE(t);
  FakeTensor x(F32, {2, 7}, 0x1000), i(I32, {3}, 0x2000), o(F32, {2, 3}, 0x3000);
  std::vector<DLTensor *> in{&x.dl, &i.dl}, outs{&o.dl};
  uint64_t key = (uint64_t(0) << 30) | (uint64_t(2) << 10) | 1;
  EXPECT_EQ(fusedIndexError(*t, KernelArgs{in, outs, {}, {}}, "graft.fused.f", key, -8),
            "graft.fused.f: %2 (take): index -8 is out of range for a dim of 7");
}

TEST(FusedCudaPlan, BadArgumentsAreErrors) {
  auto p = parse(kAdd);
  ASSERT_TRUE(p);
  FakeTensor a(F32, {4, 8}, 0x1000), b(F32, {8}, 0x2000), out(F32, {4, 8}, 0x3000);
  FakeTensor host(F32, {8}, 0x2000, {}, kDLCPU), i32(I32, {8}, 0x2000), bad(F32, {5}, 0x2000);
  FakeTensor rank3(F32, {1, 4, 8}, 0x1000);
  EXPECT_EQ(planError(*p, {&a}, out), "graft.fused.f: expects 2 inputs and 1 outputs, got 1 and 1");
  EXPECT_EQ(planError(*p, {&a, &host}, out), "graft.fused.f: input 1 is not on cuda:0");
  EXPECT_EQ(planError(*p, {&a, &i32}, out),
            "graft.fused.f: input 1 has dtype int32, expected float32");
  EXPECT_EQ(planError(*p, {&rank3, &b}, out), "graft.fused.f: input 0 has rank 3, expected 2");
  EXPECT_NE(planError(*p, {&a, &bad}, out).find("input 1"), std::string::npos);
}

} // namespace
