//===- tests/cuda/IndexTest.cpp - index_tensor, index_put, masks, nonzero, take -===//
//
// Bounds: every result here is exact, floats included. Gathers and plain
// writes copy elements; index_put with accumulate adds each target's
// values in index order starting from the data, in the accumulator type of
// the CPU kernel (float for the half types), so the bits are the CPU's.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

/// Runs `symbol` on the CPU and on CUDA and compares exactly; when the CPU
/// refuses the arguments, CUDA must refuse them too.
void expectSame(const char *symbol, std::vector<TestTensor *> in, TestTensor &cpu, TestTensor &gpu,
                const Attrs &attrs = {}) {
  std::string cpuErr = runKernel(symbol, in, {&cpu}, attrs);
  std::string gpuErr = runCuda(symbol, in, {&gpu}, attrs);
  if (!cpuErr.empty()) {
    EXPECT_NE(gpuErr, "") << cpuErr;
    return;
  }
  ASSERT_EQ(gpuErr, "");
  EXPECT_EQ(compare(cpu, gpu), "");
}

TEST(CudaIndex, IndexTensorIntegerIndices) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(21);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor data = randomTensor(t, {5, 4, 3}, rng);
    // One index with negative values; two broadcast indices of two dtypes.
    TestTensor i0 = randomTensor(I64, {2, 3}, rng, -5, 4);
    TestTensor c1(t, {2, 3, 4, 3}), g1(t, {2, 3, 4, 3});
    expectSame("graft.index_tensor", {&data, &i0}, c1, g1);
    TestTensor a = randomTensor(I32, {6}, rng, -5, 4), b = randomTensor(I8, {1}, rng, -4, 3);
    TestTensor c2(t, {6, 3}), g2(t, {6, 3});
    expectSame("graft.index_tensor", {&data, &a, &b}, c2, g2);
    // Out of range: refused, with the CPU's message.
    TestTensor bad(I64, {3}, {1, 7, -9});
    TestTensor c3(t, {3, 4, 3}), g3(t, {3, 4, 3});
    EXPECT_EQ(runCuda("graft.index_tensor", {&data, &bad}, {&g3}),
              runKernel("graft.index_tensor", {&data, &bad}, {&c3}));
  }
}

TEST(CudaIndex, MaskCountAndFill) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(22);
  for (DLDataType t : kAllTypes)
    for (std::vector<int64_t> maskShape :
         {std::vector<int64_t>{700}, std::vector<int64_t>{700, 3}}) {
      SCOPED_TRACE(typeName(t) + " mask rank " + std::to_string(maskShape.size()));
      TestTensor data = randomTensor(t, {700, 3}, rng);
      TestTensor mask = randomTensor(BOOL, maskShape, rng);
      TestTensor cc(I64, {}), gc(I64, {});
      expectSame("graft.host.index_tensor_mask_count", {&mask}, cc, gc);
      int64_t count = cc.intValues()[0];
      std::vector<int64_t> shape = {count};
      if (maskShape.size() == 1)
        shape.push_back(3);
      TestTensor cf(t, shape), gf(t, shape);
      expectSame("graft.host.index_tensor_mask", {&data, &mask}, cf, gf);
    }
}

TEST(CudaIndex, Nonzero) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(23);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {3, 40, 5}, rng, -1, 1);
    TestTensor cc(I64, {}), gc(I64, {});
    expectSame("graft.host.nonzero_count", {&x}, cc, gc);
    int64_t count = cc.intValues()[0];
    TestTensor cf(I64, {3, count}), gf(I64, {3, count});
    expectSame("graft.host.nonzero", {&x}, cf, gf);
  }
  // NaN is nonzero; a transposed input is read in its logical order.
  TestTensor f(F32, {2, 3}, {0.0, NAN, -0.0, 1.0, 0.0, 2.0}, {1, 0});
  TestTensor cc(I64, {}), gc(I64, {});
  expectSame("graft.host.nonzero_count", {&f}, cc, gc);
  TestTensor cf(I64, {2, 3}), gf(I64, {2, 3});
  expectSame("graft.host.nonzero", {&f}, cf, gf);
}

TEST(CudaIndex, IndexPutIntegerIndices) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(24);
  for (DLDataType t : kAllTypes)
    for (bool accumulate : {false, true}) {
      SCOPED_TRACE(typeName(t) + (accumulate ? " accumulate" : ""));
      TestTensor data = randomTensor(t, {6, 5, 4}, rng);
      // Many duplicates: 300 writes into 6 rows (last write wins, or sums
      // in index order).
      TestTensor idx = randomTensor(I64, {300}, rng, -6, 5);
      TestTensor vals = randomTensor(t, {300, 5, 4}, rng);
      Attrs attrs = {accumulate};
      TestTensor c(t, {6, 5, 4}), g(t, {6, 5, 4});
      expectSame("graft.index_put", {&data, &idx, &vals}, c, g, attrs);
      // Two indices (int32 and int64) broadcast, values broadcast too.
      TestTensor a = randomTensor(I32, {40, 1}, rng, 0, 5), b = randomTensor(I64, {3}, rng, -5, 4);
      TestTensor row = randomTensor(t, {4}, rng);
      TestTensor c2(t, {6, 5, 4}), g2(t, {6, 5, 4});
      expectSame("graft.index_put", {&data, &a, &b, &row}, c2, g2, attrs);
      TestTensor bad(I64, {2}, {0, 6});
      TestTensor c3(t, {6, 5, 4}), g3(t, {6, 5, 4});
      EXPECT_EQ(runCuda("graft.index_put", {&data, &bad, &row}, {&g3}, attrs),
                runKernel("graft.index_put", {&data, &bad, &row}, {&c3}, attrs));
    }
}

TEST(CudaIndex, IndexPutMask) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(25);
  for (DLDataType t : kAllTypes)
    for (bool accumulate : {false, true}) {
      SCOPED_TRACE(typeName(t) + (accumulate ? " accumulate" : ""));
      TestTensor data = randomTensor(t, {500, 3}, rng);
      TestTensor mask = randomTensor(BOOL, {500}, rng);
      TestTensor cc(I64, {}), gc(I64, {});
      RUN_OK("graft.host.index_tensor_mask_count", {&mask}, {&cc});
      int64_t count = cc.intValues()[0];
      Attrs attrs = {accumulate};
      // Values for every selected row, one row broadcast, a scalar.
      TestTensor full = randomTensor(t, {count, 3}, rng), one = randomTensor(t, {1, 3}, rng),
                 scalar = randomTensor(t, {}, rng);
      for (TestTensor *v : {&full, &one, &scalar}) {
        TestTensor c(t, {500, 3}), g(t, {500, 3});
        expectSame("graft.index_put", {&data, &mask, v}, c, g, attrs);
      }
      // A values dim that is neither 1 nor the count is refused.
      TestTensor wrong = randomTensor(t, {count + 1, 3}, rng);
      TestTensor c(t, {500, 3}), g(t, {500, 3});
      EXPECT_NE(runKernel("graft.index_put", {&data, &mask, &wrong}, {&c}, attrs), "");
      EXPECT_NE(runCuda("graft.index_put", {&data, &mask, &wrong}, {&g}, attrs), "");
    }
}

TEST(CudaIndex, Take) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(26);
  for (DLDataType t : kAllTypes)
    for (const char *mode : {"fast", "wrap", "clip", "nan"}) {
      SCOPED_TRACE(typeName(t) + " " + mode);
      TestTensor data = randomTensor(t, {4, 7, 3}, rng);
      bool inRange = std::string(mode) == "fast";
      TestTensor idx =
          inRange ? randomTensor(I32, {2, 5}, rng, -7, 6) : randomTensor(I64, {2, 5}, rng, -12, 11);
      Attrs axis1 = {int64_t(1), std::string(mode)};
      TestTensor c(t, {4, 2, 5, 3}), g(t, {4, 2, 5, 3});
      expectSame("graft.take", {&data, &idx}, c, g, axis1);
      // Unset axis: the flattening (84 elements).
      TestTensor flatIdx =
          inRange ? randomTensor(I64, {9}, rng, -84, 83) : randomTensor(I64, {9}, rng, -100, 100);
      Attrs flat = {std::monostate(), std::string(mode)};
      TestTensor cf(t, {9}), gf(t, {9});
      expectSame("graft.take", {&data, &flatIdx}, cf, gf, flat);
    }
  TestTensor data = randomTensor(F32, {4, 7}, rng), bad(I64, {2}, {3, 7});
  TestTensor c(F32, {2, 7}), g(F32, {2, 7});
  Attrs attrs = {int64_t(0), std::string("fast")};
  EXPECT_EQ(runCuda("graft.take", {&data, &bad}, {&g}, attrs),
            runKernel("graft.take", {&data, &bad}, {&c}, attrs));
}

} // namespace
} // namespace graft::cuda::test
