//===- tests/cuda/OpsBatchATest.cpp - stack ... prelu against the CPU kernels -===//
//
// The CUDA kernels of kernels/cuda/BatchA.cu and the table rows nn.selu and
// log_add_exp, on random inputs, against the CPU kernels. Bounds: stack,
// meshgrid, one_hot, eye/eye_like and bucketize copy, compare or count, and
// collapse_sum adds in the CPU kernel's order: exact in every dtype.
// outer, ewise_fma (one rounding, fma on both sides), leakyrelu and prelu
// compute with the CPU kernels' operations in their compute types: exact.
// hamming_window's double cosine may differ in its last bit before the one
// rounding: 1 ulp (float64: 4 ulp plus 4 ulp of 1, see hammingBound). softplus, selu and
// log_add_exp call the device's exp, expm1 and log1p: 4 ulp of the result's dtype.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

/// In float64 the result is the cosine itself, unrounded, and CUDA's cos
/// and the host's differ by up to 2 ulp; 0.54 - 0.46 cos cancels near the
/// window's ends, so the bound is absolute there (the H200 showed 2 ulp of
/// 0.31 and of 0.08). Narrower dtypes round the double result once: 1 ulp.
Bound hammingBound(DLDataType t) {
  if (t.bits == 64)
    return {4, 4 * std::ldexp(1.0, -52)};
  return {1, 0};
}

TEST(CudaOpsBatchA, StackAlongEveryAxis) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(101);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {3, 4}, rng, -50, 50);
    TestTensor b = randomTensor(t, {3, 4}, rng, -50, 50, {1, 0}); // stored transposed
    for (int64_t axis : {0, 1, 2, -1}) {
      std::vector<int64_t> shape = {3, 4};
      shape.insert(shape.begin() + (axis < 0 ? 2 : axis), 3);
      TestTensor c(t, shape), g(t, shape);
      expectCudaMatchesCpu("graft.stack", {&a, &b, &a}, {&c}, {&g}, {axis});
    }
  }
  TestTensor x(F32, {2, 3}), y(F32, {2, 4}), o(F32, {2, 2, 3});
  EXPECT_EQ(runCuda("graft.stack", {&x, &y}, {&o}, {int64_t(0)}),
            "graft.stack: input 1 has shape [2, 4], expected [2, 3]");
}

TEST(CudaOpsBatchA, MeshgridIjAndXy) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(102);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {2}, rng, -9, 9), b = randomTensor(t, {3}, rng, -9, 9),
               c = randomTensor(t, {4}, rng, -9, 9);
    TestTensor c0(t, {2, 3, 4}), c1(t, {2, 3, 4}), c2(t, {2, 3, 4});
    TestTensor g0(t, {2, 3, 4}), g1(t, {2, 3, 4}), g2(t, {2, 3, 4});
    expectCudaMatchesCpu("graft.meshgrid", {&a, &b, &c}, {&c0, &c1, &c2}, {&g0, &g1, &g2},
                         {std::string("ij")});
    TestTensor x0(t, {3, 2, 4}), x1(t, {3, 2, 4}), x2(t, {3, 2, 4});
    TestTensor y0(t, {3, 2, 4}), y1(t, {3, 2, 4}), y2(t, {3, 2, 4});
    expectCudaMatchesCpu("graft.meshgrid", {&a, &b, &c}, {&x0, &x1, &x2}, {&y0, &y1, &y2},
                         {std::string("xy")});
  }
}

TEST(CudaOpsBatchA, OneHotEyeAndHammingWindow) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(103);
  TestTensor idx = randomTensor(I64, {3, 5}, rng, -2, 6);
  TestTensor idx8 = randomTensor(I8, {7}, rng, -1, 4);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    for (int64_t axis : {0, 1, -1}) {
      std::vector<int64_t> shape = {3, 5};
      shape.insert(shape.begin() + (axis < 0 ? 2 : axis), 4);
      TestTensor c(t, shape), g(t, shape);
      expectCudaMatchesCpu("graft.one_hot", {&idx}, {&c}, {&g},
                           {2.5, int64_t(-1), int64_t(4), axis});
    }
    TestTensor c8(t, {7, 3}), g8(t, {7, 3});
    expectCudaMatchesCpu("graft.one_hot", {&idx8}, {&c8}, {&g8},
                         {true, false, int64_t(3), int64_t(-1)});
    for (int64_t k : {-2, 0, 1, 5}) {
      TestTensor c(t, {4, 6}), g(t, {4, 6});
      expectCudaMatchesCpu("graft.eye", {}, {&c}, {&g}, {k});
      TestTensor cl(t, {5, 3}), gl(t, {5, 3});
      expectCudaMatchesCpu("graft.eye_like", {}, {&cl}, {&gl}, {k});
    }
  }
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    for (int64_t n : {1, 2, 7, 100})
      for (bool periodic : {false, true}) {
        TestTensor c(t, {n}), g(t, {n});
        expectCudaMatchesCpu("graft.hamming_window", {}, {&c}, {&g}, {periodic, 0.54, 0.46},
                             hammingBound(t));
      }
  }
}

TEST(CudaOpsBatchA, OuterAndEwiseFma) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(104);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {5}, rng, -60, 60), b = randomTensor(t, {7}, rng, -60, 60);
    TestTensor c(t, {5, 7}), g(t, {5, 7});
    expectCudaMatchesCpu("graft.outer", {&a, &b}, {&c}, {&g});
    TestTensor x = randomTensor(t, {4, 6}, rng, -60, 60);
    TestTensor y = randomTensor(t, {4, 6}, rng, -60, 60, {1, 0});
    TestTensor z = randomTensor(t, {4, 6}, rng, -60, 60);
    TestTensor cf(t, {4, 6}), gf(t, {4, 6});
    expectCudaMatchesCpu("graft.ewise_fma", {&x, &y, &z}, {&cf}, {&gf});
  }
  // outer converts x2 to x1's dtype.
  TestTensor a = randomTensor(F16, {3}, rng), b = randomTensor(I32, {4}, rng, -9, 9);
  TestTensor c(F16, {3, 4}), g(F16, {3, 4});
  expectCudaMatchesCpu("graft.outer", {&a, &b}, {&c}, {&g});
}

TEST(CudaOpsBatchA, Activations) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(105);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {6, 9}, rng, -30, 30);
    TestTensor xt = randomTensor(t, {6, 9}, rng, -30, 30, {1, 0});
    for (TestTensor *in : {&x, &xt}) {
      TestTensor c(t, {6, 9}), g(t, {6, 9});
      expectCudaMatchesCpu("graft.nn.leakyrelu", {in}, {&c}, {&g}, {0.125});
      TestTensor cs(t, {6, 9}), gs(t, {6, 9});
      expectCudaMatchesCpu("graft.nn.softplus", {in}, {&cs}, {&gs}, {2.0, 20.0}, {4, 0});
      TestTensor cs1(t, {6, 9}), gs1(t, {6, 9});
      expectCudaMatchesCpu("graft.nn.softplus", {in}, {&cs1}, {&gs1}, {0.5, 3.0}, {4, 0});
      TestTensor cu(t, {6, 9}), gu(t, {6, 9});
      expectCudaMatchesCpu("graft.nn.selu", {in}, {&cu}, {&gu}, {}, {4, 0});
      TestTensor cl(t, {6, 9}), gl(t, {6, 9});
      expectCudaMatchesCpu("graft.log_add_exp", {in, &x}, {&cl}, {&gl}, {}, {4, 0});
    }
    TestTensor alpha0 = randomTensor(t, {6}, rng, -1, 1), alpha1 = randomTensor(t, {9}, rng);
    TestTensor c0(t, {6, 9}), g0(t, {6, 9}), c1(t, {6, 9}), g1(t, {6, 9});
    expectCudaMatchesCpu("graft.nn.prelu", {&xt, &alpha0}, {&c0}, {&g0}, {int64_t(0)});
    expectCudaMatchesCpu("graft.nn.prelu", {&x, &alpha1}, {&c1}, {&g1}, {int64_t(-1)});
  }
  TestTensor i(I32, {2}), o(I32, {2});
  EXPECT_EQ(runCuda("graft.nn.leakyrelu", {&i}, {&o}, {0.5}),
            "graft.nn.leakyrelu: takes a float tensor, got int32");
}

TEST(CudaOpsBatchA, CollapseSumAndBucketize) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(106);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    if (t.code != kernels::kGraftDLBool) {
      TestTensor x = randomTensor(t, {3, 4, 5}, rng, -20, 20, {2, 0, 1});
      for (std::vector<int64_t> shape :
           std::vector<std::vector<int64_t>>{{4, 5}, {4, 1}, {3, 1, 5}, {1}, {}, {1, 1, 1, 5}}) {
        TestTensor c(t, shape), g(t, shape);
        expectCudaMatchesCpu("graft.collapse_sum_to", {&x}, {&c}, {&g});
        TestTensor cl(t, shape), gl(t, shape);
        expectCudaMatchesCpu("graft.collapse_sum_like", {&x}, {&cl}, {&gl});
      }
    }
    TestTensor v = randomTensor(t, {4, 25}, rng, -30, 30);
    std::vector<double> edges = {-20, -7, -1, 0, 3, 11, 25};
    if (t.code == kDLUInt)
      edges = {0, 3, 11, 25};
    if (t.code == kernels::kGraftDLBool)
      edges = {0, 1};
    TestTensor bounds(t, {int64_t(edges.size())}, edges);
    for (bool right : {false, true}) {
      TestTensor c(I64, {4, 25}), g(I64, {4, 25});
      expectCudaMatchesCpu("graft.bucketize", {&v, &bounds}, {&c}, {&g}, {right});
      TestTensor c32(I32, {4, 25}), g32(I32, {4, 25});
      expectCudaMatchesCpu("graft.bucketize", {&v, &bounds}, {&c32}, {&g32}, {right});
    }
  }
  // Mixed dtypes compare as double; NaN lands in bucket 0.
  TestTensor v(F32, {5}, {-1.5, 0.0, NAN, 2.0, 7.25});
  TestTensor bounds(I32, {3}, {0, 2, 5});
  TestTensor c(I64, {5}), g(I64, {5});
  expectCudaMatchesCpu("graft.bucketize", {&v, &bounds}, {&c}, {&g}, {true});
  TestTensor x(F32, {3, 4}), o(F32, {2, 4});
  EXPECT_EQ(runCuda("graft.collapse_sum_to", {&x}, {&o}),
            "graft.collapse_sum_to: cannot collapse shape [3, 4] into [2, 4]");
}

} // namespace
} // namespace graft::cuda::test
