//===- tests/cuda/OpsBatchBTest.cpp - gathers ... grid_sample against the CPU -===//
//
// gather_elements, gather_nd, scatter_nd, slice_scatter, nn.pad,
// nn.pixel_shuffle, median, image.resize2d and image.grid_sample: the CUDA
// kernels against the CPU kernels on random inputs.
//
// Bounds: the gathers, pads, pixel_shuffle and slice_scatter copy bytes,
// median selects an element, and scatter_nd folds each target's updates in
// the CPU's row order: all exact, every dtype. resize2d and grid_sample
// compute the CPU's formulas in its compute types with every product
// rounded on its own (kernels/BatchBGeometry.h's mulR keeps nvcc from
// fusing multiply-adds), so they should match bit for bit; the stated
// bound is 2 ulp + 8 ulp(1) of slack for a library function that rounds
// differently on the device.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

/// Random integer indices in [-n, n) (negative ones count from the end).
TestTensor randomIndices(DLDataType t, std::vector<int64_t> shape, int64_t n,
                         std::mt19937_64 &rng) {
  return randomTensor(t, std::move(shape), rng, double(-n), double(n - 1));
}

Bound imageBound(DLDataType t) { return {2, 8 * ulpOf(1.0, t)}; }

TEST(CudaOpsBatchB, GatherElements) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(71);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 5, 6}, rng, -50, 50);
    for (int64_t axis : {0, 1, -1}) {
      int64_t a = axis < 0 ? axis + 3 : axis;
      std::vector<int64_t> shape = {3, 4, 5};
      shape[size_t(a)] = 7;
      TestTensor i = randomIndices(I64, shape, x.dl()->shape[a], rng);
      TestTensor c(t, shape), g(t, shape);
      expectCudaMatchesCpu("graft.gather_elements", {&x, &i}, {&c}, {&g}, {axis});
    }
    TestTensor i32 = randomIndices(I32, {4, 5, 2}, 6, rng);
    TestTensor c(t, {4, 5, 2}), g(t, {4, 5, 2});
    expectCudaMatchesCpu("graft.gather_elements", {&x, &i32}, {&c}, {&g}, {int64_t(2)});
  }
  TestTensor x(F32, {2, 3}), bad = TestTensor::ints(I64, {2, 1}, {0, 3}), o(F32, {2, 1});
  EXPECT_EQ(runCuda("graft.gather_elements", {&x, &bad}, {&o}, {int64_t(1)}),
            runKernel("graft.gather_elements", {&x, &bad}, {&o}, {int64_t(1)}));
}

TEST(CudaOpsBatchB, GatherND) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(72);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {3, 4, 5}, rng, -50, 50);
    // Depth 2 over (3, 4): rows of 5 elements; depth 3: single elements.
    TestTensor i2 = randomIndices(I64, {6, 2}, 3, rng);
    TestTensor c(t, {6, 5}), g(t, {6, 5});
    expectCudaMatchesCpu("graft.gather_nd", {&x, &i2}, {&c}, {&g}, {int64_t(0)});
    TestTensor i3 = randomIndices(I64, {2, 3, 3}, 3, rng);
    TestTensor c3(t, {2, 3}), g3(t, {2, 3});
    expectCudaMatchesCpu("graft.gather_nd", {&x, &i3}, {&c3}, {&g3}, {int64_t(0)});
    // One batch dim: indices (3, 2, 1) pick along dim 1 of each batch.
    TestTensor ib = randomIndices(I32, {3, 2, 1}, 4, rng);
    TestTensor cb(t, {3, 2, 5}), gb(t, {3, 2, 5});
    expectCudaMatchesCpu("graft.gather_nd", {&x, &ib}, {&cb}, {&gb}, {int64_t(1)});
  }
  TestTensor x(F32, {3, 4}), bad = TestTensor::ints(I64, {1, 2}, {1, -5}), o(F32, {1});
  EXPECT_EQ(runCuda("graft.gather_nd", {&x, &bad}, {&o}, {int64_t(0)}),
            runKernel("graft.gather_nd", {&x, &bad}, {&o}, {int64_t(0)}));
}

TEST(CudaOpsBatchB, ScatterNDEveryReductionDeterministic) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(73);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    std::vector<const char *> reductions = {"update", "add", "mul", "min", "max"};
    if (t.code == kernels::kGraftDLBool)
      reductions = {"update"};
    TestTensor x = randomTensor(t, {6, 4, 3}, rng, -3, 3);
    // 300 rows over 6 targets: long runs of repeated targets.
    TestTensor i1 = randomIndices(I64, {300, 1}, 6, rng);
    TestTensor u1 = randomTensor(t, {300, 4, 3}, rng, -2, 2);
    TestTensor i2 = randomIndices(I32, {5, 7, 2}, 4, rng);
    TestTensor u2 = randomTensor(t, {5, 7, 3}, rng, -2, 2);
    for (const char *red : reductions) {
      SCOPED_TRACE(red);
      TestTensor c(t, {6, 4, 3}), g(t, {6, 4, 3}), again(t, {6, 4, 3});
      expectCudaMatchesCpu("graft.scatter_nd", {&x, &i1, &u1}, {&c}, {&g}, {std::string(red)});
      ASSERT_EQ(runCuda("graft.scatter_nd", {&x, &i1, &u1}, {&again}, {std::string(red)}), "");
      EXPECT_EQ(compare(g, again), "") << "two runs differ";
      TestTensor c2(t, {6, 4, 3}), g2(t, {6, 4, 3});
      expectCudaMatchesCpu("graft.scatter_nd", {&x, &i2, &u2}, {&c2}, {&g2}, {std::string(red)});
    }
  }
  TestTensor x(F32, {4}), bad = TestTensor::ints(I64, {1, 1}, {4}), u(F32, {1}), o(F32, {4});
  EXPECT_EQ(runCuda("graft.scatter_nd", {&x, &bad, &u}, {&o}, {std::string("add")}),
            runKernel("graft.scatter_nd", {&x, &bad, &u}, {&o}, {std::string("add")}));
}

TEST(CudaOpsBatchB, SliceScatter) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(74);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {7, 5}, rng, -50, 50);
    TestTensor s0 = randomTensor(t, {3, 5}, rng, -50, 50);
    TestTensor c(t, {7, 5}), g(t, {7, 5});
    expectCudaMatchesCpu("graft.slice_scatter", {&x, &s0}, {&c}, {&g},
                         {int64_t(0), int64_t(1), int64_t(7), int64_t(2)});
    TestTensor s1 = randomTensor(t, {7, 2}, rng, -50, 50);
    TestTensor c1(t, {7, 5}), g1(t, {7, 5});
    expectCudaMatchesCpu("graft.slice_scatter", {&x, &s1}, {&c1}, {&g1},
                         {int64_t(-1), int64_t(-4), int64_t(5), int64_t(3)});
  }
}

TEST(CudaOpsBatchB, PadEveryMode) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(75);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 4, 5}, rng, -50, 50);
    std::vector<int64_t> width = {0, 1, 3, 2, 1, 4};
    for (const char *mode : {"constant", "reflect", "replicate", "circular"}) {
      SCOPED_TRACE(mode);
      TestTensor c(t, {3, 9, 10}), g(t, {3, 9, 10});
      expectCudaMatchesCpu("graft.nn.pad", {&x}, {&c}, {&g}, {width, std::string(mode), 2.5});
    }
  }
  TestTensor x(F32, {2, 2}), o(F32, {2, 6});
  EXPECT_EQ(runCuda("graft.nn.pad", {&x}, {&o},
                    {std::vector<int64_t>{0, 0, 2, 2}, std::string("reflect"), 0.0}),
            runKernel("graft.nn.pad", {&x}, {&o},
                      {std::vector<int64_t>{0, 0, 2, 2}, std::string("reflect"), 0.0}));
}

TEST(CudaOpsBatchB, PixelShuffle) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(76);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 18, 3, 4}, rng, -50, 50);
    TestTensor c(t, {2, 2, 9, 12}), g(t, {2, 2, 9, 12});
    expectCudaMatchesCpu("graft.nn.pixel_shuffle", {&x}, {&c}, {&g}, {int64_t(3)});
    TestTensor y = randomTensor(t, {8, 2, 5}, rng, -50, 50);
    TestTensor cy(t, {2, 4, 10}), gy(t, {2, 4, 10});
    expectCudaMatchesCpu("graft.nn.pixel_shuffle", {&y}, {&cy}, {&gy}, {int64_t(2)});
  }
}

TEST(CudaOpsBatchB, MedianWithTiesAndNaN) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(77);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    // Few distinct values: ties everywhere, which keep index order.
    std::vector<double> v = randomTensor(t, {5, 6, 7}, rng, -3, 3).values();
    for (double &e : v)
      e = std::round(e);
    if (isFloat(t))
      v[3] = v[40] = v[41] = NAN;
    TestTensor x(t, {5, 6, 7}, v);
    for (int64_t axis : {0, 1, 2}) {
      std::vector<int64_t> shape = {5, 6, 7};
      shape[size_t(axis)] = 1;
      TestTensor cv(t, shape), ci(I64, shape), gv(t, shape), gi(I64, shape);
      expectCudaMatchesCpu("graft.median", {&x}, {&cv, &ci}, {&gv, &gi},
                           {std::vector<int64_t>{axis}, true});
    }
    TestTensor ca(t, {}), ga(t, {});
    expectCudaMatchesCpu("graft.median", {&x}, {&ca}, {&ga}, {std::monostate(), false});
    TestTensor cm(t, {6}), gm(t, {6});
    expectCudaMatchesCpu("graft.median", {&x}, {&cm}, {&gm}, {std::vector<int64_t>{0, -1}, false});
  }
}

TEST(CudaOpsBatchB, Resize2DEveryMethodAndMode) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(78);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 3, 5, 7}, rng, -4, 4);
    TestTensor xn = randomTensor(t, {2, 5, 7, 3}, rng, -4, 4);
    for (const char *method : {"nearest_neighbor", "linear", "cubic"})
      for (const char *mode : {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
                               "tf_half_pixel_for_nn"}) {
        SCOPED_TRACE(std::string(method) + " " + mode);
        for (const char *rounding : {"round", "floor", "round_prefer_ceil"}) {
          Attrs a = {std::string("NCHW"),
                     std::string(method),
                     std::string(mode),
                     std::string(rounding),
                     -0.5,
                     int64_t(1)};
          TestTensor c(t, {2, 3, 9, 4}), g(t, {2, 3, 9, 4});
          expectCudaMatchesCpu("graft.image.resize2d", {&x}, {&c}, {&g}, a, imageBound(t));
        }
        Attrs n = {std::string("NHWC"),
                   std::string(method),
                   std::string(mode),
                   std::string("round"),
                   -0.75,
                   int64_t(0)};
        TestTensor c(F32, {2, 11, 3, 3}), g(F32, {2, 11, 3, 3});
        expectCudaMatchesCpu("graft.image.resize2d", {&xn}, {&c}, {&g}, n, imageBound(F32));
      }
  }
}

TEST(CudaOpsBatchB, GridSampleEveryPaddingMode) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(79);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 3, 5, 6}, rng, -4, 4);
    TestTensor grid = randomTensor(t, {2, 4, 7, 2}, rng, -1.3, 1.3);
    TestTensor xn = randomTensor(t, {2, 5, 6, 3}, rng, -4, 4);
    for (const char *method : {"bilinear", "nearest"})
      for (const char *padding : {"zeros", "border", "reflection"})
        for (bool align : {false, true}) {
          SCOPED_TRACE(std::string(method) + " " + padding + (align ? " aligned" : ""));
          Attrs a = {std::string(method), std::string("NCHW"), std::string(padding), align};
          TestTensor c(t, {2, 3, 4, 7}), g(t, {2, 3, 4, 7});
          expectCudaMatchesCpu("graft.image.grid_sample", {&x, &grid}, {&c}, {&g}, a,
                               imageBound(t));
          Attrs n = {std::string(method), std::string("NHWC"), std::string(padding), align};
          TestTensor cn(t, {2, 4, 7, 3}), gn(t, {2, 4, 7, 3});
          expectCudaMatchesCpu("graft.image.grid_sample", {&xn, &grid}, {&cn}, {&gn}, n,
                               imageBound(t));
        }
  }
}

} // namespace
} // namespace graft::cuda::test
