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

TEST(FusedCudaSource, InjectiveOpsAreRefusedForNow) {
  auto p = parse("fused 2\ninput %0 float32 2\n%1 = permute_dims float32 %0 axes=1,0\n"
                 "%2 = exp float32 %1\noutput %2\n");
  ASSERT_TRUE(p);
  auto src = fusedProgramCudaSource(*p);
  ASSERT_FALSE(bool(src));
  EXPECT_EQ(llvm::toString(src.takeError()),
            "the CUDA code generator does not take 'permute_dims' yet (docs/cuda.md, \"Fused "
            "kernels\")");
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
