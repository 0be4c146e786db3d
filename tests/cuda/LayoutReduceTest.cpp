//===- tests/cuda/LayoutReduceTest.cpp - concat, split, tril, clip, arg*, variance, sort axes -===//
//
// Bounds: concat, split, tril/triu, clip, size, argmax/argmin and sort
// along any axis are exact (copies, comparisons, positions). variance and
// std of float types: |gpu - cpu| <= 4 ulp + 8 n eps max|x|^2 (another
// summation order in the accumulator type, eps of float for the half
// types); of integers exact (one thread sums in the CPU's order in double).
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

void expectSame(const char *symbol, std::vector<TestTensor *> in, std::vector<TestTensor *> cpu,
                std::vector<TestTensor *> gpu, const Attrs &attrs = {}, Bound b = {}) {
  std::string cpuErr = runKernel(symbol, in, cpu, attrs);
  std::string gpuErr = runCuda(symbol, in, gpu, attrs);
  if (!cpuErr.empty()) {
    EXPECT_NE(gpuErr, "") << cpuErr;
    return;
  }
  ASSERT_EQ(gpuErr, "");
  for (size_t i = 0; i < cpu.size(); ++i)
    EXPECT_EQ(compare(*cpu[i], *gpu[i], b), "") << "output " << i;
}

TEST(CudaLayout, ConcatAndSplit) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(31);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {3, 4, 5}, rng), b = randomTensor(t, {3, 2, 5}, rng),
               c = randomTensor(t, {3, 5, 4}, rng, -4, 4, {0, 2, 1}); // transposed: [3, 4, 5]
    TestTensor co(t, {3, 6, 5}), go(t, {3, 6, 5});
    expectSame("graft.concat", {&a, &b}, {&co}, {&go}, {int64_t(1)});
    TestTensor c0(t, {6, 4, 5}), g0(t, {6, 4, 5});
    expectSame("graft.concat", {&a, &c}, {&c0}, {&g0}, {int64_t(-3)});
    TestTensor cf(t, {90}), gf(t, {90});
    expectSame("graft.concat", {&a, &b}, {&cf}, {&gf}, {std::monostate()});
    // Split into sections and at points (a negative one, a reversed pair).
    TestTensor p0(t, {3, 2, 5}), p1(t, {3, 2, 5}), q0(t, {3, 2, 5}), q1(t, {3, 2, 5});
    expectSame("graft.split", {&co}, {&p0, &p1}, {&q0, &q1}, {int64_t(3), int64_t(1)});
    TestTensor r0(t, {3, 1, 5}), r1(t, {3, 3, 5}), r2(t, {3, 0, 5}), r3(t, {3, 2, 5});
    TestTensor s0(t, {3, 1, 5}), s1(t, {3, 3, 5}), s2(t, {3, 0, 5}), s3(t, {3, 2, 5});
    expectSame("graft.split", {&co}, {&r0, &r1, &r2, &r3}, {&s0, &s1, &s2, &s3},
               {std::vector<int64_t>{1, -2, 2}, int64_t(1)});
  }
  // Mismatched shapes are refused.
  TestTensor a(F32, {3, 4}), b(F32, {2, 5}), o(F32, {5, 4});
  EXPECT_EQ(runCuda("graft.concat", {&a, &b}, {&o}, {int64_t(0)}),
            runKernel("graft.concat", {&a, &b}, {&o}, {int64_t(0)}));
}

TEST(CudaLayout, StridedSliceWithHugeSteps) {
  // Steps of any int64 are valid: |INT64_MIN| and span + |step| do not fit an int64_t, and a
  // one-element slice's step times the axis stride overflowed before (the CPU kernel's rule).
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(35);
  const int64_t big = int64_t(1) << 62;
  for (DLDataType t : {F32, BF16, I64}) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 6, 5}, rng);
    TestTensor c1(t, {1, 1, 1}), g1(t, {1, 1, 1});
    expectSame("graft.strided_slice", {&x}, {&c1}, {&g1},
               {std::vector<int64_t>{0, 1, 2}, std::vector<int64_t>{1, 5, -1},
                std::vector<int64_t>{4, -100, 0},
                std::vector<int64_t>{INT64_MAX, INT64_MIN, -big}});
    TestTensor c2(t, {4, 0, 1}), g2(t, {4, 0, 1});
    expectSame("graft.strided_slice", {&x}, {&c2}, {&g2},
               {std::vector<int64_t>{1, 2}, std::vector<int64_t>{3, 2},
                std::vector<int64_t>{1, INT64_MAX}, std::vector<int64_t>{INT64_MAX, big}});
  }
}

TEST(CudaLayout, TrilTriuClipSize) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(32);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 5, 7}, rng);
    for (int64_t k : {int64_t(-2), int64_t(0), int64_t(3)})
      for (const char *sym : {"graft.tril", "graft.triu"}) {
        TestTensor c(t, {2, 5, 7}), g(t, {2, 5, 7});
        expectSame(sym, {&x}, {&c}, {&g}, {k});
      }
    TestTensor c(t, {2, 5, 7}), g(t, {2, 5, 7});
    expectSame("graft.clip", {&x}, {&c}, {&g}, {-1.5, 2.5});
    TestTensor cs(I64, {}), gs(I64, {});
    expectSame("graft.size", {&x}, {&cs}, {&gs});
  }
  TestTensor specials(F32, {4}, {NAN, -INFINITY, INFINITY, 0.5});
  TestTensor c(F32, {4}), g(F32, {4});
  expectSame("graft.clip", {&specials}, {&c}, {&g}, {-1.0, 1.0});
}

TEST(CudaReduce, ArgmaxArgmin) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(33);
  struct Case {
    Attrs attrs;
    std::vector<int64_t> out;
  };
  std::vector<Case> cases = {{{}, {}},
                             {{int64_t(-1), false}, {6, 7}},
                             {{int64_t(0), true}, {1, 7, 300}},
                             {{int64_t(1), false}, {6, 300}}};
  for (const char *sym : {"graft.argmax", "graft.argmin"})
    for (DLDataType t : kAllTypes)
      for (const Case &c : cases)
        for (DLDataType it : {I64, I32}) {
          SCOPED_TRACE(std::string(sym) + " " + typeName(t) + " " + typeName(it));
          // A small range gives many ties: the first position must win.
          TestTensor x = randomTensor(t, {6, 7, 300}, rng, -3, 3);
          TestTensor co(it, c.out), go(it, c.out);
          expectSame(sym, {&x}, {&co}, {&go}, c.attrs);
        }
  // The first NaN wins in both.
  for (DLDataType t : kFloatTypes) {
    TestTensor x(t, {8}, {1.0, NAN, 3.0, NAN, 3.0, -INFINITY, 0.0, 2.0});
    for (const char *sym : {"graft.argmax", "graft.argmin"}) {
      TestTensor co(I64, {}), go(I64, {});
      expectSame(sym, {&x}, {&co}, {&go});
    }
  }
}

TEST(CudaReduce, VarianceAndStd) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(34);
  struct Case {
    Attrs attrs;
    std::vector<int64_t> out;
    int64_t n;
  };
  std::vector<Case> cases = {{{}, {}, 6 * 7 * 300},
                             {{std::vector<int64_t>{-1}, false}, {6, 7}, 300},
                             {{std::vector<int64_t>{0, 2}, true}, {1, 7, 1}, 1800}};
  for (const char *sym : {"graft.variance", "graft.std"})
    for (DLDataType t : kAllTypes)
      for (const Case &c : cases) {
        SCOPED_TRACE(std::string(sym) + " " + typeName(t));
        TestTensor x = randomTensor(t, {6, 7, 300}, rng, -4, 4);
        TestTensor co(t, c.out), go(t, c.out);
        double eps = t.bits == 64 ? DBL_EPSILON : FLT_EPSILON;
        Bound b = isFloat(t) ? Bound{4, 8 * double(c.n) * eps * 16} : Bound{};
        expectSame(sym, {&x}, {&co}, {&go}, c.attrs, b);
      }
}

TEST(CudaSort, AnyAxisAndStrided) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(35);
  for (DLDataType t : kAllTypes)
    for (int64_t axis : {int64_t(0), int64_t(1), int64_t(-1)})
      for (bool desc : {false, true}) {
        SCOPED_TRACE(typeName(t) + " axis " + std::to_string(axis) + (desc ? " descending" : ""));
        // Transposed storage: the last axis is not contiguous either.
        TestTensor x = randomTensor(t, {9, 5, 33}, rng, -20, 20, {2, 0, 1});
        std::vector<int64_t> shape = {9, 5, 33};
        Attrs attrs = {axis, desc};
        TestTensor cs(t, shape), gs(t, shape);
        expectSame("graft.sort", {&x}, {&cs}, {&gs}, attrs);
        for (DLDataType it : {I64, I32}) {
          TestTensor ca(it, shape), ga(it, shape);
          expectSame("graft.argsort", {&x}, {&ca}, {&ga}, attrs);
        }
      }
}

} // namespace
} // namespace graft::cuda::test
