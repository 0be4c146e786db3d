//===- tests/cuda/AttentionTest.cpp - graft.nn.attention on the GPU ---------===//
//
// The CUDA kernel against the CPU kernel (double) on random inputs, at 1,
// 33, 80 and 96 keys (a partial last tile of 64 keys, one and two full
// ones), without a mask and with both causal alignments, head dims 64 and
// 128, grouped-query heads, every float dtype. float16/bfloat16 at head dim
// 64/128 take the flash kernel; a bias, float32 and float64 the row kernel.
//
// The flash cases run every form GRAFT_CUDA_ATTENTION selects: the default
// (wgmmaKernel at head dim 128 on sm_90a devices), flashKernel ("v1"),
// flashSmemQKernel ("v5") and wgmmaKernel forced ("wgmma").
//
// Bounds: bfloat16 2 ulp + 8e-3, float16 2 ulp + 2e-3 (the flash kernel
// rounds the softmax weights to the input dtype before P V, as flash
// attention does); float32 128 ulp + 1e-5; float64 64 ulp + 1e-13.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;
const AttrValue kNone = std::monostate();

Bound attentionBound(DLDataType t) {
  if (t.code == kDLBfloat)
    return {2, 8e-3};
  if (t.bits == 16)
    return {2, 2e-3};
  if (t.bits == 32)
    return {128, 1e-5};
  return {64, 1e-13};
}

struct Shape {
  int64_t b, s, skv, n, nkv, h;
};

/// Runs one case on both devices and compares; `bias` adds a (1, N, 1, S_kv) bias.
void check(DLDataType t, const Shape &c, AttrValue causal, std::mt19937_64 &rng,
           AttrValue scale = kNone, bool bias = false) {
  SCOPED_TRACE(typeName(t) + " b" + std::to_string(c.b) + " s" + std::to_string(c.s) + " skv" +
               std::to_string(c.skv) + " n" + std::to_string(c.n) + "/" + std::to_string(c.nkv) +
               " h" + std::to_string(c.h) + " mask " +
               (std::holds_alternative<std::string>(causal) ? std::get<std::string>(causal)
                                                            : std::string("none")) +
               (bias ? " bias" : ""));
  TestTensor q = randomTensor(t, {c.b, c.s, c.n, c.h}, rng, -2, 2);
  TestTensor k = randomTensor(t, {c.b, c.skv, c.nkv, c.h}, rng, -2, 2);
  TestTensor v = randomTensor(t, {c.b, c.skv, c.nkv, c.h}, rng, -2, 2);
  TestTensor bt = randomTensor(t, {1, c.n, 1, c.skv}, rng, -3, 3);
  TestTensor co(t, {c.b, c.s, c.n, c.h}), go(t, {c.b, c.s, c.n, c.h});
  Attrs attrs = {scale, causal, kNone};
  std::vector<TestTensor *> in = {&q, &k, &v};
  if (bias)
    in.push_back(&bt);
  RUN_OK("graft.nn.attention", in, {&co}, attrs);
  ASSERT_EQ(runCuda("graft.nn.attention", in, {&go}, attrs), "");
  EXPECT_EQ(compare(co, go, attentionBound(t)), "");
}

const std::vector<AttrValue> kMasks = {kNone, std::string("TopLeft"), std::string("BottomRight")};

/// The flash kernel's forms GRAFT_CUDA_ATTENTION selects ("" the default:
/// wgmmaKernel at head dim 128 on the H100/H200, else flashKernel, which
/// "v1" forces; "wgmma" forces wgmmaKernel where it applies).
const char *const kVariants[] = {"", "v1", "v5", "wgmma"};

/// Sets GRAFT_CUDA_ATTENTION for one scope; unset again after it.
struct VariantScope {
  explicit VariantScope(const char *v) {
    if (*v)
      setenv("GRAFT_CUDA_ATTENTION", v, 1);
    else
      unsetenv("GRAFT_CUDA_ATTENTION");
  }
  ~VariantScope() { unsetenv("GRAFT_CUDA_ATTENTION"); }
};

TEST(CudaAttention, FlashKernelEveryKeyCountAndMask) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(11);
  for (const char *variant : kVariants) {
    SCOPED_TRACE(std::string("variant '") + variant + "'");
    VariantScope scope(variant);
    for (DLDataType t : {BF16, F16})
      for (int64_t h : {64, 128})
        for (int64_t skv : {1, 33, 80, 96})
          for (const AttrValue &mask : kMasks) {
            // Fewer queries than keys, and more queries than one block of
            // 128 (BottomRight then offsets by |S - S_kv| both ways).
            check(t, {2, 33, skv, 4, 4, h}, mask, rng);
            check(t, {1, 130, skv, 2, 1, h}, mask, rng);
          }
  }
}

TEST(CudaAttention, FlashKernelScalesAndManyTiles) {
  // A positive scale folds into each weight's exp2; zero and negative ones
  // take the other form. Several query blocks of several heads and batches
  // (the grid's order differs with a causal mask), and enough key tiles
  // that most leave every row's maximum where it was.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(14);
  for (const char *variant : kVariants) {
    SCOPED_TRACE(std::string("variant '") + variant + "'");
    VariantScope scope(variant);
    for (DLDataType t : {BF16, F16})
      for (int64_t h : {64, 128}) {
        for (double scale : {0.25, 0.0, -0.2})
          check(t, {1, 40, 70, 2, 2, h}, kNone, rng, scale);
        for (const AttrValue &mask : kMasks)
          check(t, {2, 300, 333, 3, 3, h}, mask, rng);
      }
  }
}

TEST(CudaAttention, OneKeyIsItsValueExactly) {
  // The weight of a single key is exactly 1: no zero-filled padding key of
  // the 64-key tile may enter the softmax.
  GRAFT_REQUIRE_GPU();
  for (const char *variant : kVariants)
    for (DLDataType t : {BF16, F16, F32, F64}) {
      SCOPED_TRACE(typeName(t) + " variant '" + variant + "'");
      VariantScope scope(variant);
      std::vector<double> qv(2 * 128), kv(128, 0.5), vv(128);
      for (size_t i = 0; i < vv.size(); ++i)
        vv[i] = double(i % 7) - 3;
      for (size_t i = 0; i < qv.size(); ++i)
        qv[i] = 1;
      TestTensor q(t, {1, 2, 1, 128}, qv), k(t, {1, 1, 1, 128}, kv), v(t, {1, 1, 1, 128}, vv);
      TestTensor o(t, {1, 2, 1, 128});
      ASSERT_EQ(runCuda("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone}), "");
      std::vector<double> want;
      for (int r = 0; r < 2; ++r)
        want.insert(want.end(), vv.begin(), vv.end());
      EXPECT_EQ(o.values(), want);
    }
}

TEST(CudaAttention, RowKernelDTypesBiasAndScale) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(12);
  for (DLDataType t : {F32, F64, BF16})
    for (int64_t skv : {1, 33, 80, 96})
      for (const AttrValue &mask : kMasks) {
        check(t, {2, 17, skv, 4, 2, 64}, mask, rng, kNone, /*bias=*/true);
        if (t.code != kDLBfloat)
          check(t, {1, 5, skv, 2, 2, 40}, mask, rng, 0.3);
      }
  // A head dim the flash kernel does not take, in a half type.
  check(F16, {1, 9, 70, 2, 1, 32}, std::string("TopLeft"), rng);
}

TEST(CudaAttention, AttentionBiasKernel) {
  // TVM's attention_bias op has its own symbol, the bias required.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(13);
  TestTensor q = randomTensor(BF16, {2, 40, 4, 64}, rng, -2, 2);
  TestTensor k = randomTensor(BF16, {2, 70, 2, 64}, rng, -2, 2);
  TestTensor v = randomTensor(BF16, {2, 70, 2, 64}, rng, -2, 2);
  TestTensor bias = randomTensor(BF16, {2, 1, 40, 70}, rng, -3, 3);
  TestTensor co(BF16, {2, 40, 4, 64}), go(BF16, {2, 40, 4, 64});
  Attrs attrs = {kNone, std::string("BottomRight"), kNone};
  RUN_OK("graft.nn.attention_bias", {&q, &k, &v, &bias}, {&co}, attrs);
  ASSERT_EQ(runCuda("graft.nn.attention_bias", {&q, &k, &v, &bias}, {&go}, attrs), "");
  EXPECT_EQ(compare(co, go, attentionBound(BF16)), "");
  EXPECT_EQ(runCuda("graft.nn.attention_bias", {&q, &k, &v}, {&go}, attrs),
            "graft.nn.attention_bias: expects 4 inputs but got 3");
}

TEST(CudaAttention, Errors) {
  GRAFT_REQUIRE_GPU();
  TestTensor q(BF16, {1, 2, 4, 64}), k(BF16, {1, 3, 2, 64}), v(BF16, {1, 3, 2, 64});
  TestTensor o(BF16, {1, 2, 4, 64});
  EXPECT_EQ(runCuda("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, int64_t(8)}),
            "graft.nn.attention: sliding-window attention (window_size) is not supported");
  TestTensor k3(BF16, {1, 3, 3, 64}), v3(BF16, {1, 3, 3, 64});
  EXPECT_EQ(runCuda("graft.nn.attention", {&q, &k3, &v3}, {&o}, {kNone, kNone, kNone}),
            "graft.nn.attention: the query's 4 heads are not a multiple of the key's 3");
  VariantScope scope("v9");
  EXPECT_EQ(runCuda("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone}),
            "graft.nn.attention: GRAFT_CUDA_ATTENTION must be v1, v5 or wgmma, got \"v9\"");
}

} // namespace
} // namespace graft::cuda::test
