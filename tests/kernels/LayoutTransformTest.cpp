//===- tests/kernels/LayoutTransformTest.cpp - graft.layout_transform by value -===//
//
// The CPU kernel of relax.layout_transform against hand-computed results:
// NCHW -> NCHW4c with padding, a transpose, a 1-D split with a pad value,
// a strided input, and the refusals (a program it cannot run, a map that
// is not injective or leaves the output).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/IndexMapPlan.h"

using namespace graft::kernels;
using namespace graft::kernels::test;
using namespace graft::kernels::indexmap;

namespace {

const AttrValue kUnset{};

/// `lambda n, c, h, w: (n, c // 4, h, w, c % 4)`.
Ints nchw4c() {
  return {4, 5,    kVar, 0, kEnd, kVar, 1, kConst, 4, kFloorDiv, kEnd, kVar,
          2, kEnd, kVar, 3, kEnd, kVar, 1, kConst, 4, kFloorMod, kEnd};
}

TEST(LayoutTransform, NCHWToNCHW4cPadsTheMissingChannels) {
  // N=1, C=6, H=1, W=2: channels 6 and 7 of the (1, 2, 1, 2, 4) output are padding.
  std::vector<double> v(12);
  for (int i = 0; i < 12; ++i)
    v[size_t(i)] = i + 1;
  TestTensor x(F32, {1, 6, 1, 2}, v), o(F32, {1, 2, 1, 2, 4});
  RUN_OK("graft.layout_transform", {&x}, {&o}, {nchw4c(), 0.5});
  // o[0, cb, 0, w, ci] = x[0, cb*4+ci, 0, w] (x[c, w] = 2c + w + 1).
  EXPECT_EQ(o.values(), (Vals{1, 3, 5, 7, 2, 4, 6, 8, 9, 11, 0.5, 0.5, 10, 12, 0.5, 0.5}));
  // Unset pad_value pads with 0.
  RUN_OK("graft.layout_transform", {&x}, {&o}, {nchw4c(), kUnset});
  EXPECT_EQ(o.values(), (Vals{1, 3, 5, 7, 2, 4, 6, 8, 9, 11, 0, 0, 10, 12, 0, 0}));
}

TEST(LayoutTransform, ATransposeOfAStridedInput) {
  // Logical [[1, 2, 3], [4, 5, 6]] stored transposed; `lambda i, j: (j, i)`.
  TestTensor x = TestTensor::ints(I32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0}), o(I32, {3, 2});
  RUN_OK("graft.layout_transform", {&x}, {&o}, {Ints{2, 2, kVar, 1, kEnd, kVar, 0, kEnd}, kUnset});
  EXPECT_EQ(o.intValues(), (Ints{1, 4, 2, 5, 3, 6}));
}

TEST(LayoutTransform, AOneDimSplitWithAPadValue) {
  // `lambda i: (i // 4, i % 4)` over 6 elements: (2, 4), the last two padding.
  Ints split = {1, 2, kVar, 0, kConst, 4, kFloorDiv, kEnd, kVar, 0, kConst, 4, kFloorMod, kEnd};
  TestTensor x = TestTensor::ints(I64, {6}, {10, 11, 12, 13, 14, 15}), o(I64, {2, 4});
  RUN_OK("graft.layout_transform", {&x}, {&o}, {split, int64_t(-7)});
  EXPECT_EQ(o.intValues(), (Ints{10, 11, 12, 13, 14, 15, -7, -7}));
  TestTensor f(F16, {6}, {1, 2, 3, 4, 5, 6}), h(F16, {2, 4});
  RUN_OK("graft.layout_transform", {&f}, {&h}, {split, 2.5});
  EXPECT_EQ(h.values(), (Vals{1, 2, 3, 4, 5, 6, 2.5, 2.5}));
  TestTensor b = TestTensor::ints(BOOL, {6}, {1, 0, 1, 0, 1, 0}), bo(BOOL, {2, 4});
  RUN_OK("graft.layout_transform", {&b}, {&bo}, {split, true});
  EXPECT_EQ(bo.intValues(), (Ints{1, 0, 1, 0, 1, 0, 1, 1}));
}

TEST(LayoutTransform, FusionAndSubtractionAndAnEmptyInput) {
  // `lambda i, j: (i * 3 + j,)` then `lambda i: (5 - i,)`.
  TestTensor x(F64, {2, 3}, {1, 2, 3, 4, 5, 6}), o(F64, {6}), r(F64, {6});
  RUN_OK("graft.layout_transform", {&x}, {&o},
         {Ints{2, 1, kVar, 0, kConst, 3, kMul, kVar, 1, kAdd, kEnd}, kUnset});
  EXPECT_EQ(o.values(), (Vals{1, 2, 3, 4, 5, 6}));
  RUN_OK("graft.layout_transform", {&o}, {&r},
         {Ints{1, 1, kConst, 5, kVar, 0, kSub, kEnd}, kUnset});
  EXPECT_EQ(r.values(), (Vals{6, 5, 4, 3, 2, 1}));
  TestTensor e(F64, {0}), p(F64, {1, 4});
  RUN_OK(
      "graft.layout_transform", {&e}, {&p},
      {Ints{1, 2, kVar, 0, kConst, 4, kFloorDiv, kEnd, kVar, 0, kConst, 4, kFloorMod, kEnd}, 1.0});
  EXPECT_EQ(p.values(), (Vals{1, 1, 1, 1}));
}

TEST(LayoutTransform, RefusesWhatItCannotRun) {
  TestTensor x(F32, {4}, {1, 2, 3, 4}), o(F32, {2, 2}), d(F32, {2});
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&o},
                      {Ints{1, 2, kVar, 0, kVar, 0, kFloorDiv, kEnd, kVar, 0, kEnd}, kUnset}),
            "graft.layout_transform: the index map divides by something other than a positive "
            "constant");
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&o}, {Ints{1, 1, kVar, 0, kEnd}, kUnset}),
            "graft.layout_transform: the index map takes 1 indices to 1, but the input has rank 1 "
            "and the output rank 2");
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&o}, {Ints{1, 2, kVar, 3, kEnd}, kUnset}),
            "graft.layout_transform: the index map reads input index 3 of 1");
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&o}, {Ints{1, 2, 9}, kUnset}),
            "graft.layout_transform: the index map program has an unknown token 9");
  // `lambda i: (i // 2,)` sends two inputs to each output element.
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&d},
                      {Ints{1, 1, kVar, 0, kConst, 2, kFloorDiv, kEnd}, kUnset}),
            "graft.layout_transform: the index map sends two input indices to output index [0] "
            "(the second is [1]); it must be injective");
  // `lambda i: (i + 1,)` leaves a 4-element output.
  TestTensor four(F32, {4});
  EXPECT_EQ(runKernel("graft.layout_transform", {&x}, {&four},
                      {Ints{1, 1, kVar, 0, kConst, 1, kAdd, kEnd}, kUnset}),
            "graft.layout_transform: the index map sends input index [3] to [4], outside the "
            "output shape [4]");
}

} // namespace
