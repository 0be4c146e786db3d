//===- tests/cuda/ConvTest.cpp - conv, pools, batch_norm on CUDA ----------===//
//
// Each CUDA kernel of kernels/cuda/Conv.cu against the CPU kernel on random
// inputs, every float dtype. Bounds per element:
//   conv, conv_transpose: 2 ulp + 2 n eps (n |x|max |w|max), n the taps
//     summed (channels per group times window), eps of the GPU's
//     accumulator (float; double for float64): another summation order.
//   max pools: exact. avg and adaptive pools: 2 ulp + 2 n eps |x|max.
//   batch_norm: 32 ulp + 1e-5 (1e-12 for float64): the CPU computes in
//     double, the GPU in float.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

double maxAbs(TestTensor &t) {
  double m = 0;
  for (double v : t.values())
    m = std::max(m, std::fabs(v));
  return m;
}

double epsOf(DLDataType t) { return t.bits == 64 ? DBL_EPSILON : FLT_EPSILON; }

Bound sumBound(DLDataType t, double terms, double magnitude) {
  return {2, 2 * terms * epsOf(t) * terms * magnitude + 1e-30};
}

struct ConvCase {
  const char *symbol;
  std::vector<int64_t> x, w, out;
  Attrs attrs;
  double taps;
  std::vector<int64_t> xPerm = {}; ///< Memory order of x (strided input).
};

TEST(CudaConv, ConvolutionsMatchTheCpu) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(11);
  std::vector<ConvCase> cases = {
      {"graft.nn.conv1d",
       {2, 4, 9},
       {6, 2, 3},
       {2, 6, 4},
       {Ints{2}, Ints{1, 2}, Ints{2}, int64_t(2), std::string("NCW"), std::string("OIW"),
        std::string("NCW")},
       6},
      {"graft.nn.conv2d",
       {2, 3, 7, 6},
       {4, 3, 3, 2},
       {2, 4, 3, 6},
       {Ints{2, 1}, Ints{1, 0, 0, 1}, Ints{1, 1}, int64_t(1), std::string("NCHW"),
        std::string("OIHW"), std::string("NCHW")},
       18,
       {0, 2, 3, 1}},
      {"graft.nn.conv2d",
       {2, 7, 6, 3},
       {3, 2, 3, 4},
       {2, 7, 6, 4},
       {Ints{1, 1}, Ints{1, 1, 1, 1}, Ints{1, 2}, int64_t(1), std::string("NHWC"),
        std::string("HWIO"), std::string("NHWC")},
       18},
      {"graft.nn.conv2d",
       {1, 8, 33, 17},
       {8, 1, 3, 3},
       {1, 8, 33, 17},
       {Ints{1, 1}, Ints{1, 1, 1, 1}, Ints{1, 1}, int64_t(8), std::string("NCHW"),
        std::string("OIHW"), std::string("NCHW")},
       9},
      {"graft.nn.conv3d",
       {1, 2, 4, 5, 3},
       {3, 2, 2, 3, 2},
       {1, 3, 4, 2, 3},
       {Ints{1, 2, 1}, Ints{0, 1, 1, 1, 0, 0}, Ints{1, 1, 1}, int64_t(1), std::string("NCDHW"),
        std::string("OIDHW"), std::string("NCDHW")},
       24},
      {"graft.nn.conv1d_transpose",
       {2, 4, 5},
       {4, 3, 3},
       {2, 6, 11},
       {Ints{2}, Ints{1, 0}, Ints{1}, Ints{1}, int64_t(2), std::string("NCW"), std::string("IOW"),
        std::string("NCW")},
       6},
      {"graft.nn.conv2d_transpose",
       {1, 3, 4, 3},
       {3, 2, 3, 2},
       {1, 2, 8, 4},
       {Ints{2, 1}, Ints{1, 1, 0, 0}, Ints{0, 0}, Ints{1, 2}, int64_t(1), std::string("NCHW"),
        std::string("IOHW"), std::string("NCHW")},
       18},
  };
  for (const ConvCase &c : cases)
    for (DLDataType t : kFloatTypes) {
      SCOPED_TRACE(std::string(c.symbol) + " " + typeName(t));
      TestTensor x = randomTensor(t, c.x, rng, -2, 2, c.xPerm),
                 w = randomTensor(t, c.w, rng, -2, 2);
      TestTensor co(t, c.out), go(t, c.out);
      RUN_OK(c.symbol, {&x, &w}, {&co}, c.attrs);
      ASSERT_EQ(runCuda(c.symbol, {&x, &w}, {&go}, c.attrs), "");
      EXPECT_EQ(compare(co, go, sumBound(t, c.taps, maxAbs(x) * maxAbs(w))), "");
    }
}

TEST(CudaConv, PoolsMatchTheCpu) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(12);
  struct Case {
    int spatial;
    std::vector<int64_t> x, out;
    Attrs attrs;
    double window;
  };
  std::vector<Case> cases = {
      {1,
       {2, 3, 9},
       {2, 3, 5},
       {Ints{3}, Ints{2}, Ints{1, 1}, Ints{1}, true, true, std::string("NCW"), std::string("NCW")},
       3},
      {2,
       {1, 2, 7, 6},
       {1, 2, 4, 3},
       {Ints{3, 3}, Ints{2, 2}, Ints{1, 1, 1, 1}, Ints{1, 1}, false, false, std::string("NCHW"),
        std::string("NCHW")},
       9},
      {2,
       {1, 7, 6, 2},
       {1, 4, 3, 2},
       {Ints{2, 3}, Ints{2, 2}, Ints{1, 0, 0, 1}, Ints{1, 1}, true, true, std::string("NHWC"),
        std::string("NHWC")},
       6},
      {3,
       {1, 2, 4, 5, 3},
       {1, 2, 4, 5, 4},
       {Ints{3, 2, 2}, Ints{1, 1, 1}, Ints{1, 1, 1, 1, 1, 1}, Ints{1, 2, 1}, false, false,
        std::string("NCDHW"), std::string("NCDHW")},
       12},
  };
  for (const Case &c : cases)
    for (bool isMax : {true, false})
      for (DLDataType t : kFloatTypes) {
        std::string symbol = std::string(isMax ? "graft.nn.max_pool" : "graft.nn.avg_pool") +
                             std::to_string(c.spatial) + "d";
        SCOPED_TRACE(symbol + " " + typeName(t));
        TestTensor x = randomTensor(t, c.x, rng);
        TestTensor co(t, c.out), go(t, c.out);
        RUN_OK(symbol, {&x}, {&co}, c.attrs);
        ASSERT_EQ(runCuda(symbol, {&x}, {&go}, c.attrs), "");
        EXPECT_EQ(compare(co, go, isMax ? Bound{} : sumBound(t, c.window, maxAbs(x))), "");
      }
}

TEST(CudaConv, AdaptivePoolsMatchTheCpu) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(13);
  struct Case {
    int spatial;
    std::vector<int64_t> x, out;
    std::string layout;
  };
  std::vector<Case> cases = {{1, {2, 3, 7}, {2, 3, 3}, "NCW"},
                             {2, {1, 5, 7, 2}, {1, 2, 3, 2}, "NHWC"},
                             {2, {1, 2, 5, 7}, {1, 2, 1, 1}, "NCHW"},
                             {3, {1, 2, 4, 5, 3}, {1, 2, 2, 2, 3}, "NCDHW"}};
  for (const Case &c : cases)
    for (DLDataType t : kFloatTypes) {
      std::string symbol = "graft.nn.adaptive_avg_pool" + std::to_string(c.spatial) + "d";
      SCOPED_TRACE(symbol + " " + typeName(t));
      Attrs attrs = {c.layout, c.layout};
      TestTensor x = randomTensor(t, c.x, rng);
      TestTensor co(t, c.out), go(t, c.out);
      RUN_OK(symbol, {&x}, {&co}, attrs);
      ASSERT_EQ(runCuda(symbol, {&x}, {&go}, attrs), "");
      EXPECT_EQ(compare(co, go, sumBound(t, 35, maxAbs(x))), "");
    }
}

TEST(CudaConv, BatchNormMatchesTheCpu) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(14);
  for (DLDataType t : kFloatTypes)
    for (bool training : {false, true})
      for (int64_t axis : {1, -1}) {
        SCOPED_TRACE(typeName(t) + (training ? " training" : " inference") + " axis " +
                     std::to_string(axis));
        std::vector<int64_t> shape = {3, 5, 300};
        int64_t ch = axis == 1 ? 5 : 300;
        TestTensor x = randomTensor(t, shape, rng), g = randomTensor(t, {ch}, rng),
                   b = randomTensor(t, {ch}, rng), m = randomTensor(t, {ch}, rng),
                   v = randomTensor(t, {ch}, rng, 0.5, 2);
        Attrs attrs = {axis, 1e-5, true, true, 0.25, training};
        TestTensor co(t, shape), cm(t, {ch}), cv(t, {ch});
        TestTensor go(t, shape), gm(t, {ch}), gv(t, {ch});
        RUN_OK("graft.nn.batch_norm", {&x, &g, &b, &m, &v}, {&co, &cm, &cv}, attrs);
        ASSERT_EQ(runCuda("graft.nn.batch_norm", {&x, &g, &b, &m, &v}, {&go, &gm, &gv}, attrs), "");
        Bound bound{32, t.bits == 64 ? 1e-12 : 1e-5};
        EXPECT_EQ(compare(co, go, bound), "");
        EXPECT_EQ(compare(cm, gm, bound), "");
        EXPECT_EQ(compare(cv, gv, bound), "");
      }
}

TEST(CudaConv, RefusesWhatTheCpuRefuses) {
  GRAFT_REQUIRE_GPU();
  TestTensor x(F32, {1, 1, 5}), w(F32, {1, 1, 2}), o(F32, {1, 1, 3});
  Attrs attrs = {Ints{1},           Ints{0, 0},         Ints{1},
                 int64_t(1),        std::string("NCW"), std::string("OIW"),
                 std::string("NCW")};
  EXPECT_EQ(runCuda("graft.nn.conv1d", {&x, &w}, {&o}, attrs),
            "graft.nn.conv1d: the output must have the canonical shape (1, 1) + (4,), got (1, 1) "
            "+ (3,)");
}

} // namespace
} // namespace graft::cuda::test
