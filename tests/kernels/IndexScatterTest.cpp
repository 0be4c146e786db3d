//===- tests/kernels/IndexScatterTest.cpp - Indexing, nonzero, scatter ----===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const double kNaN = NAN;

std::vector<AttrValue> scatterAttrs(int64_t axis, const char *red, bool self) {
  return {axis, std::string(red), self};
}

TEST(IndexTensor, IntegerIndicesBroadcast) {
  TestTensor x(F32, {3, 2}, {1, 2, 3, 4, 5, 6}, {1, 0});
  TestTensor r = TestTensor::ints(I64, {2, 1}, {0, 2}), c = TestTensor::ints(I32, {2}, {1, 0});
  TestTensor o(F32, {2, 2});
  RUN_OK("graft.index_tensor", {&x, &r, &c}, {&o});
  expectNear(o.values(), {2, 1, 6, 5});
  TestTensor rows = TestTensor::ints(I64, {3}, {2, -3, 2}), o2(F32, {3, 2});
  RUN_OK("graft.index_tensor", {&x, &rows}, {&o2});
  expectNear(o2.values(), {5, 6, 1, 2, 5, 6});
  TestTensor bad = TestTensor::ints(I64, {1}, {3}), o3(F32, {1, 2});
  EXPECT_EQ(runKernel("graft.index_tensor", {&x, &bad}, {&o3}),
            "graft.index_tensor: index 3 is out of range for dim 0 of size 3");
}

TEST(IndexTensor, BoolMaskCountThenFill) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  TestTensor m = TestTensor::ints(BOOL, {2, 3}, {1, 0, 1, 0, 0, 1}), n(I64, {});
  RUN_OK("graft.host.index_tensor_mask_count", {&m}, {&n});
  EXPECT_EQ(n.intValues(), (Ints{3}));
  TestTensor o(F32, {3});
  RUN_OK("graft.host.index_tensor_mask", {&x, &m}, {&o});
  expectNear(o.values(), {1, 3, 6});
  // A mask over the leading dim picks rows.
  TestTensor rm = TestTensor::ints(BOOL, {2}, {0, 1}), rows(F32, {1, 3});
  RUN_OK("graft.host.index_tensor_mask", {&x, &rm}, {&rows});
  expectNear(rows.values(), {4, 5, 6});
  TestTensor none = TestTensor::ints(BOOL, {2}, {0, 0}), empty(F32, {0, 3});
  RUN_OK("graft.host.index_tensor_mask", {&x, &none}, {&empty});
  EXPECT_EQ(runKernel("graft.host.index_tensor_mask", {&x, &m}, {&rows}),
            "graft.host.index_tensor_mask: output 0 has shape [1, 3], expected [3]");
  TestTensor wrong = TestTensor::ints(BOOL, {3}, {1, 1, 1});
  EXPECT_EQ(runKernel("graft.host.index_tensor_mask", {&x, &wrong}, {&o}),
            "graft.host.index_tensor_mask: mask shape [3] does not match the "
            "leading dims of [2, 3]");
}

TEST(Nonzero, CountAndFill) {
  TestTensor x(F32, {2, 3}, {0, 1, 0, NAN, 0, -2}), n(I64, {});
  RUN_OK("graft.host.nonzero_count", {&x}, {&n});
  EXPECT_EQ(n.intValues(), (Ints{3}));
  TestTensor o(I64, {2, 3});
  RUN_OK("graft.host.nonzero", {&x}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{0, 1, 1, 1, 0, 2}));
}

TEST(IndexPut, IntegerIndicesLastWriteWinsOrAccumulate) {
  TestTensor d(F32, {4}, {1, 1, 1, 1});
  TestTensor i = TestTensor::ints(I32, {3}, {1, 3, 1}), v(F32, {3}, {10, 20, 30});
  TestTensor o(F32, {4});
  RUN_OK("graft.index_put", {&d, &i, &v}, {&o}, {false});
  expectNear(o.values(), {1, 30, 1, 20});
  RUN_OK("graft.index_put", {&d, &i, &v}, {&o}, {true});
  expectNear(o.values(), {1, 41, 1, 21});
  expectNear(d.values(), {1, 1, 1, 1}); // data untouched
}

TEST(IndexPut, HalfAccumulatesRepeatsInFloat) {
  TestTensor d(F16, {1}, {0});
  TestTensor i = TestTensor::ints(I64, {3000}, std::vector<int64_t>(3000, 0));
  TestTensor v(F16, {3000}, std::vector<double>(3000, 1.0)), o(F16, {1});
  RUN_OK("graft.index_put", {&d, &i, &v}, {&o}, {true});
  expectNear(o.values(), {3000});
}

TEST(IndexPut, BoolMaskAndBroadcastValues) {
  TestTensor d(I32, {2, 2}, {1, 2, 3, 4});
  TestTensor m = TestTensor::ints(BOOL, {2, 2}, {1, 0, 0, 1}), v(I32, {2}, {7, 8});
  TestTensor o(I32, {2, 2});
  RUN_OK("graft.index_put", {&d, &m, &v}, {&o}, {false});
  EXPECT_EQ(o.intValues(), (Ints{7, 2, 3, 8}));
  RUN_OK("graft.index_put", {&d, &m, &v}, {&o}, {true});
  EXPECT_EQ(o.intValues(), (Ints{8, 2, 3, 12}));
  TestTensor s(I32, {}, {0});
  RUN_OK("graft.index_put", {&d, &m, &s}, {&o}, {false});
  EXPECT_EQ(o.intValues(), (Ints{0, 2, 3, 0}));
  TestTensor three(I32, {3});
  EXPECT_EQ(runKernel("graft.index_put", {&d, &m, &three}, {&o}, {false}),
            "graft.index_put: cannot broadcast values of shape [3] to [2]");
}

TEST(IndexPut, InPlaceAliasing) {
  TestTensor d(F64, {3}, {1, 2, 3});
  TestTensor i = TestTensor::ints(I64, {1}, {2}), v(F64, {1}, {9});
  RUN_OK("graft.index_put", {&d, &i, &v}, {&d}, {true});
  expectNear(d.values(), {1, 2, 12});
}

TEST(Scatter, ReductionsIncludeSelf) {
  TestTensor d(F32, {3}, {1, 2, 3});
  TestTensor i = TestTensor::ints(I64, {4}, {0, 0, 2, 0}), u(F32, {4}, {4, 5, 6, 7});
  TestTensor o(F32, {3});
  struct Case {
    const char *red;
    bool self;
    Vals want;
  } cases[] = {
      {"update", true, {7, 2, 6}},       {"add", true, {17, 2, 9}},
      {"add", false, {16, 2, 6}},        {"mul", true, {140, 2, 18}},
      {"mul", false, {140, 2, 6}},       {"mean", true, {4.25, 2, 4.5}},
      {"mean", false, {16.0 / 3, 2, 6}}, {"amax", true, {7, 2, 6}},
      {"amin", true, {1, 2, 3}},         {"amin", false, {4, 2, 6}},
  };
  for (const Case &c : cases) {
    RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, c.red, c.self));
    expectNear(o.values(), c.want);
  }
}

TEST(Scatter, NaNWinsInMaxMin) {
  TestTensor d(F32, {2}, {kNaN, 1});
  TestTensor i = TestTensor::ints(I32, {3}, {0, 1, 1}), u(F32, {3}, {5, kNaN, 9});
  TestTensor o(F32, {2});
  RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "amax", true));
  expectNear(o.values(), {kNaN, kNaN});
  RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "amin", false));
  expectNear(o.values(), {5, kNaN});
}

TEST(Scatter, IntegerMeanCountsInDtypeAndFloors) {
  // 128 int8 ones: the sum and the count both wrap to -128, mean is 1.
  TestTensor d = TestTensor::ints(I8, {1}, {0});
  TestTensor i = TestTensor::ints(I64, {128}, std::vector<int64_t>(128, 0));
  TestTensor u = TestTensor::ints(I8, {128}, std::vector<int64_t>(128, 1)), o(I8, {1});
  RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "mean", false));
  EXPECT_EQ(o.intValues(), (Ints{1}));
  // 256 updates: the count wraps to 0 and becomes 1; the sum wraps to 0.
  TestTensor i2 = TestTensor::ints(I64, {256}, std::vector<int64_t>(256, 0));
  TestTensor u2 = TestTensor::ints(I8, {256}, std::vector<int64_t>(256, 1));
  RUN_OK("graft.scatter_elements", {&d, &i2, &u2}, {&o}, scatterAttrs(0, "mean", false));
  EXPECT_EQ(o.intValues(), (Ints{0}));
  // Floor, not truncation: (-7) / 2 is -4.
  TestTensor e = TestTensor::ints(I32, {1}, {0});
  TestTensor j = TestTensor::ints(I32, {2}, {0, 0}), w = TestTensor::ints(I32, {2}, {-3, -4});
  TestTensor f(I32, {1});
  RUN_OK("graft.scatter_elements", {&e, &j, &w}, {&f}, scatterAttrs(0, "mean", false));
  EXPECT_EQ(f.intValues(), (Ints{-4}));
}

TEST(Scatter, HalfSumInFloatProdRoundsEachStep) {
  TestTensor d(BF16, {1}, {0});
  TestTensor i = TestTensor::ints(I64, {1000}, std::vector<int64_t>(1000, 0));
  TestTensor u(BF16, {1000}, std::vector<double>(1000, 1.0)), o(BF16, {1});
  RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "add", true));
  expectNear(o.values(), {1000}); // Step-wise bf16 rounding sticks at 256.
  TestTensor h(F16, {1}, {1});
  TestTensor k = TestTensor::ints(I64, {3}, {0, 0, 0}), p(F16, {3}, {300, 300, 0.001});
  TestTensor q(F16, {1});
  RUN_OK("graft.scatter_elements", {&h, &k, &p}, {&q}, scatterAttrs(0, "mul", true));
  // 300*300 overflows half to inf before the 0.001 could bring it back to 90.
  expectNear(q.values(), {INFINITY});
}

TEST(Scatter, MiddleAxisStridedAndNegativeAxis) {
  // data [2,3,2] zeros; scatter along axis 1 (given as -2) from a
  // transposed-storage index tensor.
  TestTensor d(F32, {2, 3, 2});
  TestTensor i = TestTensor::ints(I64, {2, 1, 2}, {2, 0, 1, 2}, {2, 1, 0});
  TestTensor u(F32, {2, 1, 2}, {1, 2, 3, 4}, {1, 0, 2});
  TestTensor o(F32, {2, 3, 2}, {}, {2, 0, 1});
  RUN_OK("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(-2, "update", true));
  expectNear(o.values(), {0, 2, 0, 0, 1, 0, 0, 0, 3, 0, 0, 4});
}

TEST(Scatter, ErrorsAndEmptyIndex) {
  TestTensor d(F32, {3}, {1, 2, 3}), o(F32, {3});
  TestTensor i = TestTensor::ints(I64, {1}, {3}), u(F32, {1}, {1});
  EXPECT_EQ(runKernel("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "add", true)),
            "graft.scatter_elements: index 3 is out of range for axis 0 of size 3");
  EXPECT_EQ(runKernel("graft.scatter_elements", {&d, &i, &u}, {&o}, scatterAttrs(0, "avg", true)),
            "graft.scatter_elements: unknown reduction 'avg'");
  TestTensor e = TestTensor::ints(I64, {0}, {}), ue(F32, {0});
  RUN_OK("graft.scatter_elements", {&d, &e, &ue}, {&o}, scatterAttrs(0, "mean", true));
  expectNear(o.values(), {1, 2, 3});
  TestTensor b = TestTensor::ints(BOOL, {2}, {0, 0}), bi = TestTensor::ints(I32, {2}, {1, 1});
  TestTensor bu = TestTensor::ints(BOOL, {2}, {1, 0}), bo(BOOL, {2});
  RUN_OK("graft.scatter_elements", {&b, &bi, &bu}, {&bo}, scatterAttrs(0, "add", true));
  EXPECT_EQ(bo.intValues(), (Ints{0, 1}));
}

} // namespace
