//===- tests/kernels/ElementwiseExtraTest.cpp - More elementwise ops ------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const double kNaN = NAN, kInf = INFINITY;

TEST(ElementwiseExtra, TruncSignSquare) {
  TestTensor x(F32, {3}, {-2.7, 2.7, -0.5}), o(F32, {3});
  RUN_OK("graft.trunc", {&x}, {&o});
  expectNear(o.values(), {-2, 2, 0});
  TestTensor i = TestTensor::ints(I32, {2}, {-7, 9}), io(I32, {2});
  RUN_OK("graft.trunc", {&i}, {&io});
  EXPECT_EQ(io.intValues(), (Ints{-7, 9}));
  TestTensor s(F64, {4}, {-3, 0, 2.5, kNaN}), so(F64, {4});
  RUN_OK("graft.sign", {&s}, {&so});
  expectNear(so.values(), {-1, 0, 1, kNaN});
  TestTensor s8 = TestTensor::ints(I8, {3}, {-5, 0, 7}), s8o(I8, {3});
  RUN_OK("graft.sign", {&s8}, {&s8o});
  EXPECT_EQ(s8o.intValues(), (Ints{-1, 0, 1}));
  TestTensor u = TestTensor::ints(U8, {2}, {0, 9}), uo(U8, {2});
  RUN_OK("graft.sign", {&u}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{0, 1}));
  TestTensor q = TestTensor::ints(I8, {2}, {-3, 12}), qo(I8, {2});
  RUN_OK("graft.square", {&q}, {&qo});
  EXPECT_EQ(qo.intValues(), (Ints{9, -112})); // 144 wraps in int8.
  TestTensor h(F16, {2}, {1.5, -3}), ho(F16, {2});
  RUN_OK("graft.square", {&h}, {&ho});
  expectNear(ho.values(), {2.25, 9});
}

TEST(ElementwiseExtra, InverseAndHyperbolicTrig) {
  TestTensor x(F64, {2}, {0.5, 2}), o(F64, {2});
  RUN_OK("graft.acos", {&x}, {&o});
  expectNear(o.values(), {1.0471975511965976, kNaN});
  RUN_OK("graft.asin", {&x}, {&o});
  expectNear(o.values(), {0.5235987755982988, kNaN});
  RUN_OK("graft.atanh", {&x}, {&o});
  expectNear(o.values(), {0.5493061443340549, kNaN});
  TestTensor y(F32, {3}, {0, 1, -1}), p(F32, {3});
  RUN_OK("graft.atan", {&y}, {&p});
  expectNear(p.values(), {0, 0.7853981633974483, -0.7853981633974483});
  RUN_OK("graft.asinh", {&y}, {&p});
  expectNear(p.values(), {0, 0.881373587019543, -0.881373587019543});
  RUN_OK("graft.cosh", {&y}, {&p});
  expectNear(p.values(), {1, 1.5430806348152437, 1.5430806348152437});
  RUN_OK("graft.sinh", {&y}, {&p});
  expectNear(p.values(), {0, 1.1752011936438014, -1.1752011936438014});
  TestTensor z(F64, {2}, {1, 2}), q(F64, {2});
  RUN_OK("graft.acosh", {&z}, {&q});
  expectNear(q.values(), {0, 1.3169578969248166});
  RUN_OK("graft.tan", {&z}, {&q});
  expectNear(q.values(), {1.5574077246549023, -2.185039863261519});
  // Transposed input: [[0, 1], [-1, 0]] stored column-major.
  TestTensor t(F32, {2, 2}, {0, 1, -1, 0}, {1, 0}), to(F32, {2, 2});
  RUN_OK("graft.sinh", {&t}, {&to});
  expectNear(to.values(), {0, 1.1752011936438014, -1.1752011936438014, 0});
  TestTensor i(I32, {2});
  EXPECT_EQ(runKernel("graft.tan", {&i}, {&i}),
            "graft.tan: takes a floating-point tensor, got int32");
  TestTensor b(BOOL, {2});
  EXPECT_EQ(runKernel("graft.sign", {&b}, {&b}), "graft.sign: takes a numeric tensor, got bool");
}

TEST(ElementwiseExtra, NanInfFinitePredicates) {
  TestTensor x(F32, {5}, {1, kNaN, kInf, -kInf, 0}), o(BOOL, {5});
  RUN_OK("graft.isnan", {&x}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{0, 1, 0, 0, 0}));
  RUN_OK("graft.isinf", {&x}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{0, 0, 1, 1, 0}));
  RUN_OK("graft.isfinite", {&x}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1, 0, 0, 0, 1}));
  TestTensor h(F16, {2}, {kNaN, 3}), ho(BOOL, {2});
  RUN_OK("graft.isnan", {&h}, {&ho});
  EXPECT_EQ(ho.intValues(), (Ints{1, 0}));
  TestTensor i = TestTensor::ints(I32, {2}, {INT32_MIN, 5}), io(BOOL, {2});
  RUN_OK("graft.isnan", {&i}, {&io});
  EXPECT_EQ(io.intValues(), (Ints{0, 0}));
  RUN_OK("graft.isfinite", {&i}, {&io});
  EXPECT_EQ(io.intValues(), (Ints{1, 1}));
  TestTensor wrong(F32, {5});
  EXPECT_EQ(runKernel("graft.isnan", {&x}, {&wrong}),
            "graft.isnan: output 0 has dtype float32, expected bool");
}

TEST(ElementwiseExtra, ModAndFloorModSigns) {
  TestTensor a = TestTensor::ints(I32, {6}, {7, -7, 7, -7, 5, INT32_MIN});
  TestTensor b = TestTensor::ints(I32, {6}, {3, 3, -3, -3, 0, -1});
  TestTensor o(I32, {6});
  RUN_OK("graft.mod", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1, -1, 1, -1, 0, 0}));
  RUN_OK("graft.floor_mod", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1, 2, -2, -1, 0, 0}));
  TestTensor u = TestTensor::ints(U8, {2}, {250, 7}), v = TestTensor::ints(U8, {2}, {7, 0});
  TestTensor uo(U8, {2});
  RUN_OK("graft.floor_mod", {&u, &v}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{5, 0}));
  TestTensor x(F64, {5}, {5.5, -5.5, 5.5, 1, -4}), y(F64, {5}, {2, 2, -2, 0, 2});
  TestTensor f(F64, {5});
  RUN_OK("graft.mod", {&x, &y}, {&f});
  expectNear(f.values(), {1.5, -1.5, 1.5, kNaN, 0});
  RUN_OK("graft.floor_mod", {&x, &y}, {&f});
  expectNear(f.values(), {1.5, 0.5, -0.5, kNaN, 0});
  EXPECT_FALSE(std::signbit(f.values()[4])); // -4 floor_mod 2 is +0.
  // Broadcast a column of dividends against a row of divisors.
  TestTensor c = TestTensor::ints(I64, {2, 1}, {-5, 5}), r = TestTensor::ints(I64, {2}, {3, -3});
  TestTensor co(I64, {2, 2});
  RUN_OK("graft.floor_mod", {&c, &r}, {&co});
  EXPECT_EQ(co.intValues(), (Ints{1, -2, 2, -1}));
  TestTensor bo(BOOL, {2});
  EXPECT_EQ(runKernel("graft.mod", {&bo, &bo}, {&bo}), "graft.mod: does not take bool");
}

TEST(ElementwiseExtra, BitwiseOnSeveralDtypes) {
  TestTensor a = TestTensor::ints(I32, {3}, {12, -1, 5}),
             b = TestTensor::ints(I32, {3}, {10, 7, -8});
  TestTensor o(I32, {3});
  RUN_OK("graft.bitwise_and", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{8, 7, 0}));
  RUN_OK("graft.bitwise_or", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{14, -1, -3}));
  RUN_OK("graft.bitwise_xor", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{6, -8, -3}));
  TestTensor u = TestTensor::ints(U8, {2}, {0xF0, 0xFF}),
             v = TestTensor::ints(U8, {2}, {0x3C, 0x01});
  TestTensor uo(U8, {2});
  RUN_OK("graft.bitwise_and", {&u, &v}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{0x30, 0x01}));
  RUN_OK("graft.bitwise_xor", {&u, &v}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{0xCC, 0xFE}));
  TestTensor p = TestTensor::ints(BOOL, {4}, {1, 1, 0, 0}),
             q = TestTensor::ints(BOOL, {4}, {1, 0, 1, 0});
  TestTensor po(BOOL, {4});
  RUN_OK("graft.bitwise_and", {&p, &q}, {&po});
  EXPECT_EQ(po.intValues(), (Ints{1, 0, 0, 0}));
  RUN_OK("graft.bitwise_or", {&p, &q}, {&po});
  EXPECT_EQ(po.intValues(), (Ints{1, 1, 1, 0}));
  RUN_OK("graft.bitwise_xor", {&p, &q}, {&po});
  EXPECT_EQ(po.intValues(), (Ints{0, 1, 1, 0}));
  TestTensor n = TestTensor::ints(I64, {3}, {0, -1, 5}), no(I64, {3});
  RUN_OK("graft.bitwise_not", {&n}, {&no});
  EXPECT_EQ(no.intValues(), (Ints{-1, 0, -6}));
  TestTensor n8 = TestTensor::ints(U8, {2}, {0, 200}), n8o(U8, {2});
  RUN_OK("graft.bitwise_not", {&n8}, {&n8o});
  EXPECT_EQ(n8o.intValues(), (Ints{255, 55}));
  TestTensor nb = TestTensor::ints(BOOL, {2}, {1, 0}), nbo(BOOL, {2});
  RUN_OK("graft.bitwise_not", {&nb}, {&nbo});
  EXPECT_EQ(nbo.intValues(), (Ints{0, 1}));
  TestTensor f(F32, {2});
  EXPECT_EQ(runKernel("graft.bitwise_and", {&f, &f}, {&f}),
            "graft.bitwise_and: does not take float32");
  EXPECT_EQ(runKernel("graft.bitwise_not", {&f}, {&f}),
            "graft.bitwise_not: takes an integer or bool tensor, got float32");
}

TEST(ElementwiseExtra, ShiftsOutOfRangeAndNegative) {
  TestTensor a = TestTensor::ints(I8, {5}, {1, -1, 64, 1, 1});
  TestTensor b = TestTensor::ints(I8, {5}, {3, 1, 1, 8, -1});
  TestTensor o(I8, {5});
  RUN_OK("graft.left_shift", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{8, -2, -128, 0, 0}));
  TestTensor c = TestTensor::ints(I8, {5}, {-16, 16, -1, -5, 100});
  TestTensor d = TestTensor::ints(I8, {5}, {2, 2, 10, 1, -1});
  RUN_OK("graft.right_shift", {&c, &d}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{-4, 4, -1, -3, 0}));
  TestTensor u = TestTensor::ints(U8, {2}, {255, 255}), s = TestTensor::ints(U8, {2}, {1, 9});
  TestTensor uo(U8, {2});
  RUN_OK("graft.left_shift", {&u, &s}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{254, 0}));
  RUN_OK("graft.right_shift", {&u, &s}, {&uo});
  EXPECT_EQ(uo.intValues(), (Ints{127, 0}));
  TestTensor x = TestTensor::ints(I64, {2}, {1, INT64_MIN}), y = TestTensor::ints(I64, {}, {63});
  TestTensor xo(I64, {2});
  RUN_OK("graft.left_shift", {&x, &y}, {&xo});
  EXPECT_EQ(xo.intValues(), (Ints{INT64_MIN, 0}));
  RUN_OK("graft.right_shift", {&x, &y}, {&xo});
  EXPECT_EQ(xo.intValues(), (Ints{0, -1}));
  TestTensor bo(BOOL, {2});
  EXPECT_EQ(runKernel("graft.left_shift", {&bo, &bo}, {&bo}),
            "graft.left_shift: does not take bool");
}

TEST(ElementwiseExtra, LogicalXorMixedDtypes) {
  TestTensor a(F32, {2}, {0, 2}), b = TestTensor::ints(I32, {2, 1}, {0, 3});
  TestTensor o(BOOL, {2, 2});
  RUN_OK("graft.logical_xor", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{0, 1, 1, 0}));
}

TEST(ElementwiseExtra, LikeCreationAndSize) {
  TestTensor x = TestTensor::ints(I32, {2, 2}, {5, 6, 7, 8}), o(F32, {2, 2}, {9, 9, 9, 9});
  RUN_OK("graft.zeros_like", {&x}, {&o});
  expectNear(o.values(), {0, 0, 0, 0});
  RUN_OK("graft.ones_like", {&x}, {&o});
  expectNear(o.values(), {1, 1, 1, 1});
  TestTensor fill(F64, {}, {2.5}), io(I32, {2, 2}, {}, {1, 0});
  RUN_OK("graft.full_like", {&x, &fill}, {&io});
  EXPECT_EQ(io.intValues(), (Ints{2, 2, 2, 2})); // Truncated to int32.
  RUN_OK("graft.full_like", {&x, &fill}, {&o});
  expectNear(o.values(), {2.5, 2.5, 2.5, 2.5});
  TestTensor two(F64, {2});
  EXPECT_EQ(runKernel("graft.full_like", {&x, &two}, {&o}),
            "graft.full_like: fill value must hold one element, got shape [2]");
  TestTensor bad(F32, {4});
  EXPECT_EQ(runKernel("graft.zeros_like", {&x}, {&bad}),
            "graft.zeros_like: output 0 has shape [4], expected [2, 2]");
  TestTensor big(F32, {2, 3, 4}), n(I64, {});
  RUN_OK("graft.size", {&big}, {&n});
  EXPECT_EQ(n.intValues(), (Ints{24}));
  TestTensor empty(BOOL, {3, 0}), scalar(F16, {});
  RUN_OK("graft.size", {&empty}, {&n});
  EXPECT_EQ(n.intValues(), (Ints{0}));
  RUN_OK("graft.size", {&scalar}, {&n});
  EXPECT_EQ(n.intValues(), (Ints{1}));
  TestTensor n32(I32, {});
  EXPECT_EQ(runKernel("graft.size", {&big}, {&n32}),
            "graft.size: output 0 has dtype int32, expected int64");
}

} // namespace
