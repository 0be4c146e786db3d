//===- tests/kernels/AttentionTest.cpp - nn.attention, the CPU kernel -----===//

#include "KernelTestUtil.h"

#include <cmath>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const AttrValue kNone = std::monostate();

TEST(Attention, OneKeyGivesItsValue) {
  // One key: its weight is exactly 1 whatever the score.
  TestTensor q(F32, {1, 2, 1, 2}, {3, -1, 0.5, 7}), k(F32, {1, 1, 1, 2}, {2, 5});
  TestTensor v(F32, {1, 1, 1, 3}, {1, -2, 4}), o(F32, {1, 2, 1, 3});
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone});
  expectNear(o.values(), {1, -2, 4, 1, -2, 4});
}

TEST(Attention, DefaultScaleAndCausalMasks) {
  // H = 4: scores q.k / 2. Query 0 scores keys (0, 2); query 1 (2, 0).
  TestTensor q(F64, {1, 2, 1, 4}, {0, 0, 0, 0, 1, 1, 1, 1});
  TestTensor k(F64, {1, 2, 1, 4}, {1, 1, 1, 1, 0, 0, 0, 0});
  TestTensor v(F64, {1, 2, 1, 1}, {10, 20}), o(F64, {1, 2, 1, 1});
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone});
  double w = 1 / (1 + std::exp(-2.0)); // weight of the higher score
  expectNear(o.values(), {15, 10 * w + 20 * (1 - w)});
  // TopLeft: query 0 sees key 0 only.
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, std::string("TopLeft"), kNone});
  expectNear(o.values(), {10, 10 * w + 20 * (1 - w)});
  // An explicit scale of 0: uniform weights over the visible keys.
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {0.0, std::string("TopLeft"), kNone});
  expectNear(o.values(), {10, 15});
}

TEST(Attention, BottomRightAlignsTheLastQueryWithTheLastKey) {
  // S = 2, S_kv = 4, scale 0: query 0 sees keys 0..2, query 1 all four.
  TestTensor q(F32, {1, 2, 1, 1}), k(F32, {1, 4, 1, 1});
  TestTensor v(F32, {1, 4, 1, 1}, {1, 2, 3, 6}), o(F32, {1, 2, 1, 1});
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {0.0, std::string("BottomRight"), kNone});
  expectNear(o.values(), {2, 3});
  RUN_OK("graft.nn.attention", {&q, &k, &v}, {&o}, {0.0, std::string("TopLeft"), kNone});
  expectNear(o.values(), {1, 1.5});
  // S = 4, S_kv = 2: TVM offsets by |S - S_kv|, so every query sees both keys.
  TestTensor q4(F32, {1, 4, 1, 1}), k2(F32, {1, 2, 1, 1}), v2(F32, {1, 2, 1, 1}, {1, 3});
  TestTensor o4(F32, {1, 4, 1, 1});
  RUN_OK("graft.nn.attention", {&q4, &k2, &v2}, {&o4}, {0.0, std::string("BottomRight"), kNone});
  expectNear(o4.values(), {2, 2, 2, 2});
}

TEST(Attention, GroupedQueryHeadsAndBias) {
  // N = 2 query heads share one key/value head; the bias picks key 1 for
  // head 0 and key 0 for head 1.
  TestTensor q(BF16, {1, 1, 2, 1}), k(BF16, {1, 2, 1, 1});
  TestTensor v(BF16, {1, 2, 1, 1}, {3, 5}), o(BF16, {1, 1, 2, 1});
  TestTensor bias(BF16, {1, 2, 1, 2}, {-100, 0, 0, -100});
  RUN_OK("graft.nn.attention", {&q, &k, &v, &bias}, {&o}, {kNone, kNone, kNone});
  expectNear(o.values(), {5, 3});
}

TEST(AttentionErrors, Messages) {
  TestTensor q(F32, {1, 2, 4, 8}), k(F32, {1, 3, 3, 8}), v(F32, {1, 3, 3, 8}), o(F32, {1, 2, 4, 8});
  EXPECT_EQ(runKernel("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone}),
            "graft.nn.attention: the query's 4 heads are not a multiple of the key's 3");
  TestTensor k2(F32, {1, 3, 2, 8}), v2(F32, {1, 3, 2, 8});
  EXPECT_EQ(runKernel("graft.nn.attention", {&q, &k2, &v2}, {&o},
                      {kNone, std::string("Diagonal"), kNone}),
            "graft.nn.attention: causal_mask must be \"TopLeft\" or \"BottomRight\", got "
            "\"Diagonal\"");
  EXPECT_EQ(runKernel("graft.nn.attention", {&q, &k2, &v2}, {&o}, {kNone, kNone, int64_t(4)}),
            "graft.nn.attention: sliding-window attention (window_size) is not supported");
  TestTensor q3(F32, {2, 4, 8});
  EXPECT_EQ(runKernel("graft.nn.attention", {&q3, &k2, &v2}, {&o}, {kNone, kNone, kNone}),
            "graft.nn.attention: query must be 4-D (batch, sequence, heads, head dim), got shape "
            "[2, 4, 8]");
  TestTensor i(I32, {1, 2, 4, 8});
  EXPECT_EQ(runKernel("graft.nn.attention", {&i, &k2, &v2}, {&o}, {kNone, kNone, kNone}),
            "graft.nn.attention: takes floating-point tensors, got int32");
}

} // namespace
