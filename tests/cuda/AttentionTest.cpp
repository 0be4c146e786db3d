//===- tests/cuda/AttentionTest.cpp - graft.nn.attention on the GPU ---------===//
//
// The CUDA kernel against the CPU kernel (double) on random inputs, at 1,
// 33, 80 and 96 keys (a partial last tile of 64 keys, one and two full
// ones), without a mask and with both causal alignments, head dims 64 and
// 128, grouped-query heads, every float dtype. float16/bfloat16 at head dim
// 64/128 take the flash kernel; a bias, float32 and float64 the row kernel.
//
// The flash cases (AttentionCases.h) run the default form, flashKernel
// ("v1") and flashSmemQKernel ("v5"); WgmmaAttentionTest.cpp runs them for
// the forced wgmma kernel.
//
//===----------------------------------------------------------------------===//

#include "AttentionCases.h"

namespace graft::cuda::test {
namespace {

using namespace attention;

/// The flash kernel's forms GRAFT_CUDA_ATTENTION selects here ("" the
/// default, "v1" flashKernel, "v5" flashSmemQKernel).
const char *const kVariants[] = {"", "v1", "v5"};

TEST(CudaAttention, FlashKernelEveryKeyCountAndMask) {
  GRAFT_REQUIRE_GPU();
  for (const char *variant : kVariants)
    everyKeyCountAndMask(variant);
}

TEST(CudaAttention, FlashKernelScalesAndManyTiles) {
  GRAFT_REQUIRE_GPU();
  for (const char *variant : kVariants)
    scalesAndManyTiles(variant);
}

TEST(CudaAttention, OneKeyIsItsValueExactly) {
  GRAFT_REQUIRE_GPU();
  for (const char *variant : kVariants)
    oneKeyIsItsValueExactly(variant);
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
