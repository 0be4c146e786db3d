//===- tests/cuda/LateOpsTest.cpp - repeat ... einsum against the CPU kernels -===//
//
// Bounds: repeat, tile, flip, layout_transform and dynamic_strided_slice are
// copies, topk sorts and copies, quantize/dequantize compute in the CPU kernels' types
// with the same saturation: all exact. einsum runs the CPU kernel's loop in
// the same order without fused multiply-adds, so it is exact too; floats
// get 2 ulp of slack.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

TEST(CudaLateOps, RepeatTileFlip) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(41);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor xs = randomTensor(t, {3, 4, 5}, rng, -50, 50);
    for (TestTensor *in : {&xs}) {
      TestTensor c(t, {3, 12, 5}), g(t, {3, 12, 5});
      expectCudaMatchesCpu("graft.repeat", {in}, {&c}, {&g}, {int64_t(3), int64_t(1)});
      TestTensor cf(t, {120}), gf(t, {120});
      expectCudaMatchesCpu("graft.repeat", {in}, {&cf}, {&gf}, {int64_t(2), std::monostate()});
      TestTensor ct(t, {2, 3, 8, 15}), gt(t, {2, 3, 8, 15});
      expectCudaMatchesCpu("graft.tile", {in}, {&ct}, {&gt}, {std::vector<int64_t>{2, 1, 2, 3}});
      TestTensor cl(t, {3, 4, 10}), gl(t, {3, 4, 10});
      expectCudaMatchesCpu("graft.tile", {in}, {&cl}, {&gl}, {std::vector<int64_t>{2}});
      for (int64_t axis : {0, 1, -1}) {
        TestTensor cp(t, {3, 4, 5}), gp(t, {3, 4, 5});
        expectCudaMatchesCpu("graft.flip", {in}, {&cp}, {&gp}, {axis});
      }
    }
  }
  TestTensor x(F32, {2, 3}), o(F32, {2, 5});
  EXPECT_EQ(runCuda("graft.repeat", {&x}, {&o}, {int64_t(2), int64_t(1)}),
            "graft.repeat: output has shape [2, 5], expected [2, 6]");
}

TEST(CudaLateOps, RepeatAndFlipOfAStridedInput) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(42);
  for (DLDataType t : {I8, F16, F32, F64}) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 3}, rng, -9, 9, {1, 0}); // stored transposed
    TestTensor c(t, {4, 6}), g(t, {4, 6});
    expectCudaMatchesCpu("graft.repeat", {&x}, {&c}, {&g}, {int64_t(2), int64_t(-1)});
    TestTensor cf(t, {36}), gf(t, {36});
    expectCudaMatchesCpu("graft.repeat", {&x}, {&cf}, {&gf}, {int64_t(3), std::monostate()});
    TestTensor cp(t, {4, 3}), gp(t, {4, 3});
    expectCudaMatchesCpu("graft.flip", {&x}, {&cp}, {&gp}, {int64_t(0)});
  }
}

/// `lambda n, c, h, w: (n, c // 4, h, w, c % 4)`, a transpose and a 1-D
/// split (kernels/IndexMapPlan.h's tokens: 1 parameter, 2 constant, 3 +,
/// 5 *, 6 //, 7 %, 0 end of an index).
const std::vector<int64_t> kNCHW4c = {4, 5, 1, 0, 0, 1, 1, 2, 4, 6, 0, 1,
                                      2, 0, 1, 3, 0, 1, 1, 2, 4, 7, 0};
const std::vector<int64_t> kSwapLast = {3, 3, 1, 0, 0, 1, 2, 0, 1, 1, 0};
const std::vector<int64_t> kSplit4 = {1, 2, 1, 0, 2, 4, 6, 0, 1, 0, 2, 4, 7, 0};

TEST(CudaLateOps, LayoutTransformPadsTransposesAndSplits) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(47);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    AttrValue pad = isFloat(t) ? AttrValue(0.5) : AttrValue(int64_t(3));
    // C = 6: the last two channels of the second block are padding.
    TestTensor x = randomTensor(t, {2, 6, 3, 5}, rng, -50, 50);
    TestTensor c(t, {2, 2, 3, 5, 4}), g(t, {2, 2, 3, 5, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&x}, {&c}, {&g}, {kNCHW4c, pad});
    TestTensor cu(t, {2, 2, 3, 5, 4}), gu(t, {2, 2, 3, 5, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&x}, {&cu}, {&gu}, {kNCHW4c, std::monostate()});
    // A transposed input into an output stored in another order.
    TestTensor s = randomTensor(t, {3, 4, 5}, rng, -50, 50, {2, 0, 1});
    TestTensor ct(t, {3, 5, 4}, {}, {1, 2, 0}), gt(t, {3, 5, 4}, {}, {1, 2, 0});
    expectCudaMatchesCpu("graft.layout_transform", {&s}, {&ct}, {&gt},
                         {kSwapLast, std::monostate()});
    TestTensor v = randomTensor(t, {1001}, rng, -50, 50);
    TestTensor cs(t, {251, 4}), gs(t, {251, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&v}, {&cs}, {&gs}, {kSplit4, pad});
  }
  TestTensor x(F32, {4}), o(F32, {2, 2});
  EXPECT_EQ(runCuda("graft.layout_transform", {&x}, {&o},
                    {std::vector<int64_t>{1, 2, 1, 0, 1, 0, 6, 0, 1, 0, 0}, std::monostate()}),
            runKernel("graft.layout_transform", {&x}, {&o},
                      {std::vector<int64_t>{1, 2, 1, 0, 1, 0, 6, 0, 1, 0, 0}, std::monostate()}));
}

TEST(CudaLateOps, DynamicStridedSliceShapeAndFill) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(43);
  TestTensor b = TestTensor::ints(I64, {3}, {3, 1, -1}),
             e = TestTensor::ints(I32, {3}, {-9, 100, 0}),
             s = TestTensor::ints(I64, {3}, {-1, 2, -2});
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 5, 6}, rng, -50, 50);
    TestTensor cs(I64, {3}), gs(I64, {3});
    expectCudaMatchesCpu("graft.host.dynamic_strided_slice_count", {&x, &b, &e, &s}, {&cs}, {&gs});
    EXPECT_EQ(gs.intValues(), (Ints{4, 2, 3}));
    TestTensor c(t, {4, 2, 3}), g(t, {4, 2, 3});
    expectCudaMatchesCpu("graft.host.dynamic_strided_slice", {&x, &b, &e, &s}, {&c}, {&g});
  }
  TestTensor x(F32, {4, 5, 6}), o(F32, {4, 2, 3});
  TestTensor zero = TestTensor::ints(I64, {3}, {1, 0, 1});
  EXPECT_EQ(runCuda("graft.host.dynamic_strided_slice", {&x, &b, &e, &zero}, {&o}),
            runKernel("graft.host.dynamic_strided_slice", {&x, &b, &e, &zero}, {&o}));
}

TEST(CudaLateOps, QuantizeAndDequantize) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(44);
  TestTensor s = randomTensor(F32, {5}, rng, 0.1, 3), s0(F32, {}, {0.37});
  TestTensor z = randomTensor(I8, {5}, rng, -20, 20), z0 = TestTensor::ints(U8, {}, {3});
  for (DLDataType t : kFloatTypes) {
    for (DLDataType o : {I8, U8, I16, I32, F16, BF16, F32}) {
      SCOPED_TRACE(typeName(t) + " to " + typeName(o));
      TestTensor x = randomTensor(t, {3, 5}, rng, -300, 300);
      TestTensor c(o, {3, 5}), g(o, {3, 5});
      expectCudaMatchesCpu("graft.quantize", {&x, &s, &z}, {&c}, {&g}, {int64_t(1)});
      TestTensor c0(o, {3, 5}), g0(o, {3, 5});
      expectCudaMatchesCpu("graft.quantize", {&x, &s0, &z0}, {&c0}, {&g0}, {int64_t(-1)});
    }
  }
  // NaN saturates to the maximum on both.
  TestTensor xn(F32, {3}, {NAN, 1e9, -1e9}), cn(I8, {3}), gn(I8, {3});
  expectCudaMatchesCpu("graft.quantize", {&xn, &s0, &z0}, {&cn}, {&gn}, {int64_t(0)});
  EXPECT_EQ(gn.intValues(), (Ints{127, 127, -128}));
  for (DLDataType t : {I8, U8, I16, I32, I64, F16, F32, F64}) {
    for (DLDataType o : {F32, F16, BF16}) {
      SCOPED_TRACE(typeName(t) + " to " + typeName(o));
      TestTensor x = randomTensor(t, {4, 5}, rng, -100, 100);
      TestTensor c(o, {4, 5}), g(o, {4, 5});
      expectCudaMatchesCpu("graft.dequantize", {&x, &s, &z}, {&c}, {&g}, {int64_t(1)});
      TestTensor big(F32, {}, {3000.5}), c0(o, {4, 5}), g0(o, {4, 5});
      expectCudaMatchesCpu("graft.dequantize", {&x, &big, &z0}, {&c0}, {&g0}, {int64_t(0)});
    }
  }
  TestTensor x(F32, {3, 5}), bad(F32, {4}), o(I8, {3, 5});
  EXPECT_EQ(runCuda("graft.quantize", {&x, &bad, &z}, {&o}, {int64_t(1)}),
            runKernel("graft.quantize", {&x, &bad, &z}, {&o}, {int64_t(1)}));
}

TEST(CudaLateOps, TopKEveryRetTypeAndDirection) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(45);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    // Few distinct values: many ties, which keep input order.
    std::vector<double> v = randomTensor(t, {6, 37}, rng, -3, 3).values();
    if (isFloat(t))
      v[5] = v[80] = NAN;
    TestTensor x(t, {6, 37}, v);
    for (bool largest : {true, false}) {
      TestTensor cv(t, {6, 5}), ci(I32, {6, 5}), gv(t, {6, 5}), gi(I32, {6, 5});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                           {int64_t(5), int64_t(-1), std::string("both"), largest});
      TestTensor ca(t, {6, 37}), ga(t, {6, 37});
      expectCudaMatchesCpu("graft.topk", {&x}, {&ca}, {&ga},
                           {int64_t(0), int64_t(1), std::string("values"), largest});
      TestTensor c0(I64, {4, 37}), g0(I64, {4, 37});
      expectCudaMatchesCpu("graft.topk", {&x}, {&c0}, {&g0},
                           {int64_t(4), int64_t(0), std::string("indices"), largest});
    }
  }
  TestTensor x(F32, {2, 3}), o(F32, {2, 1});
  EXPECT_EQ(
      runCuda("graft.topk", {&x}, {&o}, {int64_t(1), int64_t(1), std::string("both"), true}),
      runKernel("graft.topk", {&x}, {&o}, {int64_t(1), int64_t(1), std::string("both"), true}));
}

/// Rows longer than one block sorts go through cub's (segmented) radix
/// sort: 100000 elements of 41 distinct values (ties everywhere, the lower
/// index first), NaN and both zeros; then several long rows along a
/// non-last axis of a transposed input.
TEST(CudaLateOps, TopKOfLongRowsWithTies) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(48);
  // Few dtypes and calls: compute-sanitizer runs this suite too.
  for (DLDataType t : {F32, I32}) {
    SCOPED_TRACE(typeName(t));
    std::vector<double> v = randomTensor(t, {1, 100000}, rng, -20, 20).values();
    for (double &e : v)
      e = std::round(e);
    if (isFloat(t)) {
      v[7] = v[99999] = v[31337] = NAN;
      v[11] = -0.0;
      v[12] = 0.0;
    }
    TestTensor x(t, {1, 100000}, v);
    for (bool largest : {true, false}) {
      TestTensor cv(t, {1, 50}), ci(I64, {1, 50}), gv(t, {1, 50}), gi(I64, {1, 50});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                           {int64_t(50), int64_t(-1), std::string("both"), largest});
      TestTensor cj(I32, {1, 50}), gj(I32, {1, 50});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cj}, {&gj},
                           {int64_t(50), int64_t(1), std::string("indices"), largest});
    }
  }
  TestTensor x = randomTensor(F32, {5000, 3}, rng, -9, 9, {1, 0}); // stored transposed
  for (bool largest : {true, false}) {
    TestTensor cv(F32, {17, 3}), ci(I32, {17, 3}), gv(F32, {17, 3}), gi(I32, {17, 3});
    expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                         {int64_t(17), int64_t(0), std::string("both"), largest});
  }
}

TEST(CudaLateOps, EinsumContractions) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(46);
  for (DLDataType t : {I8, I16, I32, I64, U8, F16, BF16, F32, F64}) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {5, 7}, rng, -3, 3), b = randomTensor(t, {7, 6}, rng, -3, 3),
               v = randomTensor(t, {6}, rng, -3, 3), sq = randomTensor(t, {5, 5}, rng, -3, 3);
    TestTensor at = randomTensor(t, {7, 5}, rng, -3, 3, {1, 0}); // logical [7, 5], transposed
    Bound bound{2, 0};
    TestTensor c(t, {5, 6}), g(t, {5, 6});
    expectCudaMatchesCpu("graft.einsum", {&a, &b}, {&c}, {&g}, {std::string("ij,jk->ik")}, bound);
    TestTensor c3(t, {5}), g3(t, {5});
    expectCudaMatchesCpu("graft.einsum", {&a, &b, &v}, {&c3}, {&g3}, {std::string("ij,jk,k")},
                         bound);
    TestTensor ct(t, {}), gt(t, {});
    expectCudaMatchesCpu("graft.einsum", {&sq}, {&ct}, {&gt}, {std::string("ii")}, bound);
    TestTensor cd(t, {5}), gd(t, {5});
    expectCudaMatchesCpu("graft.einsum", {&sq}, {&cd}, {&gd}, {std::string("ii->i")}, bound);
    TestTensor co(t, {5, 7}), go(t, {5, 7});
    expectCudaMatchesCpu("graft.einsum", {&at}, {&co}, {&go}, {std::string("ji->ij")}, bound);
    TestTensor cb(t, {5, 5, 7}), gb(t, {5, 5, 7});
    expectCudaMatchesCpu("graft.einsum", {&sq, &a}, {&cb}, {&gb}, {std::string("ij,jk->jik")},
                         bound);
  }
  TestTensor a(F32, {2, 3}), b(F32, {4, 3}), o(F32, {2, 3});
  EXPECT_EQ(runCuda("graft.einsum", {&a, &b}, {&o}, {std::string("ij,jk->ik")}),
            runKernel("graft.einsum", {&a, &b}, {&o}, {std::string("ij,jk->ik")}));
}

} // namespace
} // namespace graft::cuda::test
