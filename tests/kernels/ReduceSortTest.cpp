//===- tests/kernels/ReduceSortTest.cpp - Reductions, cumsum, sort --------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const double kNaN = NAN;
const AttrValue kUnset = std::monostate{};

TEST(Reduce, SumMeanProdOverAxes) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  TestTensor r0(F32, {3}), r1(F32, {2, 1}), all(F32, {});
  RUN_OK("graft.sum", {&x}, {&r0}, {Ints{0}, false});
  expectNear(r0.values(), {5, 7, 9});
  RUN_OK("graft.mean", {&x}, {&r1}, {Ints{-1}, true});
  expectNear(r1.values(), {2, 5});
  RUN_OK("graft.prod", {&x}, {&all}, {kUnset, false});
  expectNear(all.values(), {720});
  TestTensor same(F32, {2, 3}); // An empty axis list reduces nothing.
  RUN_OK("graft.sum", {&x}, {&same}, {Ints{}, false});
  expectNear(same.values(), x.values());
}

TEST(Reduce, TransposedInputAndMiddleAxis) {
  // Logical [[1,2,3],[4,5,6]] stored transposed.
  TestTensor x(F64, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0}), r(F64, {2});
  RUN_OK("graft.max", {&x}, {&r}, {Ints{1}, false});
  expectNear(r.values(), {3, 6});
  TestTensor y(I32, {2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}), s(I32, {2, 2});
  RUN_OK("graft.sum", {&y}, {&s}, {Ints{1}, false});
  EXPECT_EQ(s.intValues(), (Ints{9, 12, 27, 30}));
}

TEST(Reduce, MaxMinPropagateNaNAndArgFindsFirst) {
  TestTensor x(F32, {5}, {1, kNaN, 7, kNaN, 7}), r(F32, {}), i(I64, {});
  RUN_OK("graft.max", {&x}, {&r}, {kUnset, false});
  expectNear(r.values(), {kNaN});
  RUN_OK("graft.argmax", {&x}, {&i}, {kUnset, false});
  EXPECT_EQ(i.intValues(), (Ints{1}));
  TestTensor y(F32, {2, 3}, {3, 1, 1, 0, 9, 9}), j(I32, {2, 1});
  RUN_OK("graft.argmin", {&y}, {&j}, {int64_t(1), true});
  EXPECT_EQ(j.intValues(), (Ints{1, 0}));
  RUN_OK("graft.argmax", {&y}, {&j}, {int64_t(-1), true});
  EXPECT_EQ(j.intValues(), (Ints{0, 1}));
}

TEST(Reduce, ArgOfBoolOrdersFalseBeforeTrue) {
  TestTensor b = TestTensor::ints(BOOL, {2, 3}, {0, 1, 1, 1, 0, 0}), i(I64, {2});
  RUN_OK("graft.argmax", {&b}, {&i}, {int64_t(1), false});
  EXPECT_EQ(i.intValues(), (Ints{1, 0}));
  RUN_OK("graft.argmin", {&b}, {&i}, {int64_t(1), false});
  EXPECT_EQ(i.intValues(), (Ints{0, 1}));
  TestTensor s(BOOL, {});
  EXPECT_EQ(runKernel("graft.sum", {&b}, {&s}, {kUnset, false}), "graft.sum: does not take bool");
}

TEST(Reduce, IntegerSumWrapsAndMeanTruncates) {
  TestTensor x = TestTensor::ints(I8, {3}, {100, 100, -7}), r(I8, {});
  RUN_OK("graft.sum", {&x}, {&r});
  EXPECT_EQ(r.intValues(), (Ints{-63})); // 193 wraps.
  TestTensor y = TestTensor::ints(I32, {2}, {-3, -4}), m(I32, {});
  RUN_OK("graft.mean", {&y}, {&m});
  EXPECT_EQ(m.intValues(), (Ints{-3}));
}

TEST(Reduce, HalfSumAccumulatesInFloat) {
  std::vector<double> ones(3000, 1.0);
  TestTensor x(F16, {3000}, ones), r(F16, {});
  RUN_OK("graft.sum", {&x}, {&r});
  expectNear(r.values(), {3000}); // Rounding per step would stick at 2048.
}

TEST(Reduce, EmptyInputs) {
  TestTensor x(F32, {0, 2}), s(F32, {2}), m(F32, {2}), p(F32, {2});
  RUN_OK("graft.sum", {&x}, {&s}, {Ints{0}, false});
  expectNear(s.values(), {0, 0});
  RUN_OK("graft.prod", {&x}, {&p}, {Ints{0}, false});
  expectNear(p.values(), {1, 1});
  RUN_OK("graft.mean", {&x}, {&m}, {Ints{0}, false});
  expectNear(m.values(), {kNaN, kNaN});
  EXPECT_EQ(runKernel("graft.max", {&x}, {&m}, {Ints{0}, false}),
            "graft.max: cannot reduce an empty axis (input shape [0, 2])");
  TestTensor e(F32, {0}); // Reducing axis 1 of [0, 2] gives [0]: fine.
  RUN_OK("graft.max", {&x}, {&e}, {Ints{1}, false});
}

TEST(Reduce, BoolMaxIsAny) {
  TestTensor x = TestTensor::ints(BOOL, {2, 2}, {0, 1, 0, 0}), r(BOOL, {2});
  RUN_OK("graft.max", {&x}, {&r}, {Ints{1}, false});
  EXPECT_EQ(r.intValues(), (Ints{1, 0}));
}

TEST(ReduceErrors, Messages) {
  TestTensor x(F32, {2, 3}), r(F32, {3});
  EXPECT_EQ(runKernel("graft.sum", {&x}, {&r}, {Ints{1}, false}),
            "graft.sum: output 0 has shape [3], expected [2]");
  EXPECT_EQ(runKernel("graft.sum", {&x}, {&r}, {Ints{2}, false}),
            "graft.sum: axis 2 is out of range for rank 2");
  EXPECT_EQ(runKernel("graft.sum", {&x}, {&r}, {Ints{0, -2}, false}),
            "graft.sum: axes [0, -2] repeat an axis");
  TestTensor f(F32, {2});
  EXPECT_EQ(runKernel("graft.argmax", {&x}, {&f}, {int64_t(1), false}),
            "graft.argmax: output 0 must be int32 or int64, got float32");
}

TEST(Cumsum, AxisExclusiveAndFlat) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0}), o(F32, {2, 3});
  RUN_OK("graft.cumsum", {&x}, {&o}, {int64_t(1), false});
  expectNear(o.values(), {1, 3, 6, 4, 9, 15});
  RUN_OK("graft.cumsum", {&x}, {&o}, {int64_t(0), true});
  expectNear(o.values(), {0, 0, 0, 1, 2, 3});
  TestTensor flat(I64, {6});
  RUN_OK("graft.cumsum", {&x}, {&flat}, {kUnset, false});
  EXPECT_EQ(flat.intValues(), (Ints{1, 3, 6, 10, 15, 21}));
}

TEST(Reduce, CumprodAxisExclusiveAndFlat) {
  TestTensor x = TestTensor::ints(I32, {2, 3}, {1, 2, 3, 4, 5, 6}), o(I32, {2, 3});
  RUN_OK("graft.cumprod", {&x}, {&o}, {int64_t(1), false});
  EXPECT_EQ(o.intValues(), (Ints{1, 2, 6, 4, 20, 120}));
  RUN_OK("graft.cumprod", {&x}, {&o}, {int64_t(0), true});
  EXPECT_EQ(o.intValues(), (Ints{1, 1, 1, 1, 2, 3}));
  TestTensor flat(F64, {6});
  RUN_OK("graft.cumprod", {&x}, {&flat}, {kUnset, false});
  expectNear(flat.values(), {1, 2, 6, 24, 120, 720});
  TestTensor t(F32, {2, 2}, {2, 3, 4, 5}, {1, 0}), to(F32, {2, 2});
  RUN_OK("graft.cumprod", {&t}, {&to}, {int64_t(-1), true});
  expectNear(to.values(), {1, 2, 1, 4});
}

TEST(Reduce, VarianceAndStdArePopulation) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 6, 8}), o(F32, {2});
  RUN_OK("graft.variance", {&x}, {&o}, {Ints{1}, false});
  expectNear(o.values(), {2.0 / 3, 8.0 / 3});
  RUN_OK("graft.std", {&x}, {&o}, {Ints{-1}, false});
  expectNear(o.values(), {0.816496580927726, 1.632993161855452});
  TestTensor all(F32, {1, 1});
  RUN_OK("graft.variance", {&x}, {&all}, {kUnset, true});
  expectNear(all.values(), {34.0 / 6});
  TestTensor col(F32, {3});
  RUN_OK("graft.variance", {&x}, {&col}, {Ints{0}, false});
  expectNear(col.values(), {2.25, 4, 6.25});
  TestTensor n(F64, {4}, {1, kNaN, 3, 4}), no(F64, {});
  RUN_OK("graft.std", {&n}, {&no}, {kUnset, false});
  expectNear(no.values(), {kNaN});
  TestTensor i = TestTensor::ints(I32, {4}, {1, 2, 3, 4}), io(I32, {});
  RUN_OK("graft.variance", {&i}, {&io}, {kUnset, false});
  EXPECT_EQ(io.intValues(), (Ints{1})); // 1.25 truncated.
  TestTensor e(F32, {0}), eo(F32, {});
  RUN_OK("graft.variance", {&e}, {&eo}, {kUnset, false});
  expectNear(eo.values(), {kNaN});
  TestTensor b(BOOL, {2}), bo(BOOL, {});
  EXPECT_EQ(runKernel("graft.std", {&b}, {&bo}, {kUnset, false}), "graft.std: does not take bool");
}

TEST(Sort, StableWithNaNAndDescending) {
  TestTensor x(F32, {6}, {3, kNaN, 1, 3, -1, 1}), s(F32, {6}), i(I64, {6});
  RUN_OK("graft.sort", {&x}, {&s}, {int64_t(0), false});
  expectNear(s.values(), {-1, 1, 1, 3, 3, kNaN});
  RUN_OK("graft.argsort", {&x}, {&i}, {int64_t(0), false});
  EXPECT_EQ(i.intValues(), (Ints{4, 2, 5, 0, 3, 1}));
  RUN_OK("graft.argsort", {&x}, {&i}, {int64_t(0), true});
  EXPECT_EQ(i.intValues(), (Ints{1, 0, 3, 2, 5, 4}));
}

TEST(Sort, AlongAxis0OfTransposed) {
  TestTensor x(I32, {3, 2}, {5, 1, 2, 9, 7, 3}, {1, 0}), s(I32, {3, 2});
  TestTensor i(I32, {3, 2});
  RUN_OK("graft.sort", {&x}, {&s}, {int64_t(0), true});
  EXPECT_EQ(s.intValues(), (Ints{7, 9, 5, 3, 2, 1}));
  RUN_OK("graft.argsort", {&x}, {&i}, {int64_t(-2), false});
  EXPECT_EQ(i.intValues(), (Ints{1, 0, 0, 2, 2, 1}));
}

TEST(Sort, NeedsWorkspace) {
  TestTensor x(F32, {4}), s(F32, {4});
  const KernelInfo *k = lookupKernel("graft.sort");
  DLTensor *in[] = {x.dl()}, *out[] = {s.dl()};
  std::vector<AttrValue> attrs = {int64_t(0), false};
  KernelArgs args{in, out, attrs, {}};
  EXPECT_EQ(k->workspaceBytes(args), 80u);
  EXPECT_EQ(llvm::toString(k->fn(args)), "graft.sort: needs a workspace of 80 bytes, got 0");
}

} // namespace
