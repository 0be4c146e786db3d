//===- tests/kernels/ElementwiseTest.cpp - Elementwise and creation ops ---===//

#include "KernelTestUtil.h"

#include <numbers>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const double kNaN = NAN, kInf = INFINITY;

TEST(Elementwise, AddBroadcastsRowAndColumn) {
  TestTensor a(F32, {2, 1}, {1, 2}), b(F32, {3}, {10, 20, 30}), o(F32, {2, 3});
  RUN_OK("graft.add", {&a, &b}, {&o});
  expectNear(o.values(), {11, 21, 31, 12, 22, 32});
}

TEST(Elementwise, TransposedAndOffsetInputs) {
  // a is [[1,2,3],[4,5,6]] stored column-major at an offset of 3 elements.
  TestTensor a(F64, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0}, 3);
  TestTensor b(F64, {2, 3}, {6, 5, 4, 3, 2, 1});
  TestTensor o(F64, {2, 3}, {}, {1, 0}); // Strided output too.
  RUN_OK("graft.subtract", {&a, &b}, {&o});
  expectNear(o.values(), {-5, -3, -1, 1, 3, 5});
}

TEST(Elementwise, EmptyAndScalarShapes) {
  TestTensor a(F32, {0, 3}), b(F32, {3}, {1, 2, 3}), o(F32, {0, 3});
  RUN_OK("graft.multiply", {&a, &b}, {&o});
  TestTensor s(F32, {}, {2}), t(F32, {}, {5}), r(F32, {});
  RUN_OK("graft.power", {&s, &t}, {&r});
  expectNear(r.values(), {32});
}

TEST(Elementwise, IntegerOverflowWraps) {
  TestTensor a = TestTensor::ints(I32, {3}, {INT32_MAX, INT32_MIN, 100000});
  TestTensor b = TestTensor::ints(I32, {3}, {1, -1, 100000});
  TestTensor o(I32, {3});
  RUN_OK("graft.add", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{INT32_MIN, INT32_MAX, 200000}));
  RUN_OK("graft.multiply", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{INT32_MAX, INT32_MIN, 1410065408}));
  TestTensor c = TestTensor::ints(I8, {2}, {127, -128}), d = TestTensor::ints(I8, {2}, {1, -1});
  TestTensor e(I8, {2});
  RUN_OK("graft.add", {&c, &d}, {&e});
  EXPECT_EQ(e.intValues(), (Ints{-128, 127}));
  RUN_OK("graft.divide", {&c, &d}, {&e}); // -128 / -1 wraps.
  EXPECT_EQ(e.intValues(), (Ints{127, -128}));
  TestTensor u = TestTensor::ints(U8, {2}, {0, 250}), v = TestTensor::ints(U8, {2}, {1, 10});
  TestTensor w(U8, {2});
  RUN_OK("graft.subtract", {&u, &v}, {&w});
  EXPECT_EQ(w.intValues(), (Ints{255, 240}));
  TestTensor big = TestTensor::ints(I64, {1}, {INT64_MAX}), one = TestTensor::ints(I64, {1}, {1});
  TestTensor bo(I64, {1});
  RUN_OK("graft.add", {&big, &one}, {&bo});
  EXPECT_EQ(bo.intValues(), (Ints{INT64_MIN}));
}

TEST(Elementwise, IntegerDivisionTruncatesFloorDivideFloors) {
  TestTensor a = TestTensor::ints(I32, {4}, {7, -7, 7, 5});
  TestTensor b = TestTensor::ints(I32, {4}, {2, 2, -2, 0});
  TestTensor o(I32, {4});
  RUN_OK("graft.divide", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{3, -3, -3, 0})); // x/0 is 0 by definition.
  RUN_OK("graft.floor_divide", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{3, -4, -4, 0}));
  TestTensor f(F32, {2}, {7, -7}), g(F32, {2}, {2, 2}), h(F32, {2});
  RUN_OK("graft.floor_divide", {&f, &g}, {&h});
  expectNear(h.values(), {3, -4});
}

TEST(Elementwise, IntegerPower) {
  TestTensor a = TestTensor::ints(I64, {4}, {2, 3, -1, 2});
  TestTensor b = TestTensor::ints(I64, {4}, {10, 0, 3, -1});
  TestTensor o(I64, {4});
  RUN_OK("graft.power", {&a, &b}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{1024, 1, -1, 0}));
}

TEST(Elementwise, NaNAndInf) {
  TestTensor a(F32, {4}, {kNaN, 1, kInf, -kInf}), b(F32, {4}, {1, kNaN, 1, kInf});
  TestTensor o(F32, {4});
  RUN_OK("graft.maximum", {&a, &b}, {&o});
  expectNear(o.values(), {kNaN, kNaN, kInf, kInf});
  RUN_OK("graft.minimum", {&a, &b}, {&o});
  expectNear(o.values(), {kNaN, kNaN, 1, -kInf});
  RUN_OK("graft.add", {&a, &b}, {&o});
  expectNear(o.values(), {kNaN, kNaN, kInf, kNaN});
  TestTensor c(BOOL, {4});
  RUN_OK("graft.equal", {&a, &a}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{0, 1, 1, 1}));
  RUN_OK("graft.not_equal", {&a, &b}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{1, 1, 1, 1}));
  RUN_OK("graft.less", {&a, &b}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{0, 0, 0, 1}));
}

TEST(Elementwise, ComparisonsAndLogical) {
  TestTensor a = TestTensor::ints(I64, {3}, {1, 2, 3}), b = TestTensor::ints(I64, {1}, {2});
  TestTensor c(BOOL, {3});
  RUN_OK("graft.less_equal", {&a, &b}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{1, 1, 0}));
  RUN_OK("graft.greater", {&a, &b}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{0, 0, 1}));
  RUN_OK("graft.greater_equal", {&a, &b}, {&c});
  EXPECT_EQ(c.intValues(), (Ints{0, 1, 1}));
  TestTensor p = TestTensor::ints(BOOL, {4}, {0, 0, 1, 1}),
             q = TestTensor::ints(BOOL, {4}, {0, 1, 0, 1});
  TestTensor r(BOOL, {4});
  RUN_OK("graft.logical_and", {&p, &q}, {&r});
  EXPECT_EQ(r.intValues(), (Ints{0, 0, 0, 1}));
  RUN_OK("graft.logical_or", {&p, &q}, {&r});
  EXPECT_EQ(r.intValues(), (Ints{0, 1, 1, 1}));
  RUN_OK("graft.logical_not", {&p}, {&r});
  EXPECT_EQ(r.intValues(), (Ints{1, 1, 0, 0}));
}

TEST(Elementwise, BoolMixesWithOtherDtypes) {
  TestTensor a(F32, {2}, {1.5, 2.5}), m = TestTensor::ints(BOOL, {2}, {1, 0});
  TestTensor o(F32, {2});
  RUN_OK("graft.add", {&a, &m}, {&o});
  expectNear(o.values(), {2.5, 2.5});
}

TEST(Elementwise, HalfTypesRoundOnStore) {
  // 2049 is not a float16; 2048 + 1 rounds to even (2048).
  TestTensor a(F16, {3}, {2048, 65504, 1e-7}), b(F16, {3}, {1, 65504, 0});
  TestTensor o(F16, {3});
  RUN_OK("graft.add", {&a, &b}, {&o});
  expectNear(o.values(), {2048, kInf, 1.1920928955078125e-07});
  EXPECT_EQ(o.bits16(1), 0x7c00);
  EXPECT_EQ(o.bits16(2), 0x0002); // Subnormal: 1e-7 rounds to 2 * 2^-24.
  TestTensor x(BF16, {2}, {1.0, 3.0}), y(BF16, {2}, {0.00390625, 1.0 / 3}), z(BF16, {2});
  RUN_OK("graft.add", {&x, &y}, {&z});
  // 1 + 2^-8 is a tie between 1 and 1+2^-7: ties go to even (1.0).
  expectNear(z.values(), {1.0, 3.328125});
  TestTensor n(F16, {1}, {kNaN}), e(F16, {1});
  RUN_OK("graft.exp", {&n}, {&e});
  expectNear(e.values(), {kNaN});
}

TEST(Elementwise, UnaryMath) {
  TestTensor x(F64, {4}, {-2, -0.5, 0.5, 2}), o(F64, {4});
  struct Case {
    const char *sym;
    double (*f)(double);
  } cases[] = {
      {"graft.exp", [](double v) { return std::exp(v); }},
      {"graft.sin", [](double v) { return std::sin(v); }},
      {"graft.cos", [](double v) { return std::cos(v); }},
      {"graft.tanh", [](double v) { return std::tanh(v); }},
      {"graft.erf", [](double v) { return std::erf(v); }},
      {"graft.sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"graft.abs", [](double v) { return std::fabs(v); }},
      {"graft.negative", [](double v) { return -v; }},
      {"graft.floor", [](double v) { return std::floor(v); }},
      {"graft.ceil", [](double v) { return std::ceil(v); }},
      {"graft.nn.relu", [](double v) { return v < 0 ? 0.0 : v; }},
      {"graft.nn.silu", [](double v) { return v / (1 + std::exp(-v)); }},
      {"graft.nn.gelu", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},
      {"graft.nn.gelu_tanh",
       [](double v) {
         return 0.5 * v *
                (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
       }},
  };
  for (const Case &c : cases) {
    RUN_OK(c.sym, {&x}, {&o});
    Vals want;
    for (double v : x.values())
      want.push_back(c.f(v));
    expectNear(o.values(), want, 1e-12);
  }
  TestTensor p(F32, {3}, {4, 0, -1}), q(F32, {3});
  RUN_OK("graft.sqrt", {&p}, {&q});
  expectNear(q.values(), {2, 0, kNaN});
  RUN_OK("graft.rsqrt", {&p}, {&q});
  expectNear(q.values(), {0.5, kInf, kNaN});
  RUN_OK("graft.log", {&p}, {&q});
  expectNear(q.values(), {std::log(4.0), -kInf, kNaN});
  TestTensor r(F32, {4}, {0.5, 1.5, 2.5, -0.5}), s(F32, {4});
  RUN_OK("graft.round", {&r}, {&s});
  expectNear(s.values(), {0, 2, 2, -0.0}); // Half to even.
}

TEST(Elementwise, IntegerUnary) {
  TestTensor a = TestTensor::ints(I8, {3}, {-128, -5, 7}), o(I8, {3});
  RUN_OK("graft.abs", {&a}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{-128, 5, 7})); // |INT8_MIN| wraps.
  RUN_OK("graft.negative", {&a}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{-128, 5, -7}));
  RUN_OK("graft.floor", {&a}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{-128, -5, 7}));
  RUN_OK("graft.nn.relu", {&a}, {&o});
  EXPECT_EQ(o.intValues(), (Ints{0, 0, 7}));
}

TEST(Elementwise, ClipAndAstype) {
  TestTensor a(F32, {4}, {-3, 0.5, 9, kNaN}), o(F32, {4});
  RUN_OK("graft.clip", {&a}, {&o}, {0.0, 1.0});
  expectNear(o.values(), {0, 0.5, 1, kNaN});
  TestTensor i = TestTensor::ints(I32, {3}, {-10, 5, 10}), j(I32, {3});
  RUN_OK("graft.clip", {&i}, {&j}, {int64_t(-1), int64_t(6)});
  EXPECT_EQ(j.intValues(), (Ints{-1, 5, 6}));
  TestTensor f(F32, {6}, {300, -1.7, kNaN, 1e20, 2.9, -0.0});
  TestTensor i8(I8, {6}), u8(U8, {6}), b(BOOL, {6}), h(F16, {6});
  RUN_OK("graft.astype", {&f}, {&i8});
  EXPECT_EQ(i8.intValues(), (Ints{44, -1, 0, -1, 2, 0}));
  RUN_OK("graft.astype", {&f}, {&u8});
  EXPECT_EQ(u8.intValues(), (Ints{44, 255, 0, 255, 2, 0}));
  RUN_OK("graft.astype", {&f}, {&b});
  EXPECT_EQ(b.intValues(), (Ints{1, 1, 1, 1, 1, 0}));
  RUN_OK("graft.astype", {&f}, {&h});
  expectNear(h.values(), {300, -1.7001953125, kNaN, kInf, 2.900390625, 0});
  TestTensor big = TestTensor::ints(I64, {1}, {(int64_t(1) << 53) + 1}), d(F64, {1});
  RUN_OK("graft.astype", {&big}, {&d});
  expectNear(d.values(), {9007199254740992.0});
}

TEST(Elementwise, Where) {
  TestTensor c = TestTensor::ints(BOOL, {2, 1}, {1, 0});
  TestTensor x(F32, {3}, {1, 2, 3}), y(F32, {}, {-1}), o(F32, {2, 3});
  RUN_OK("graft.where", {&c, &x, &y}, {&o});
  expectNear(o.values(), {1, 2, 3, -1, -1, -1});
}

TEST(Elementwise, Creation) {
  TestTensor z(I32, {2, 2}), o(BF16, {3}), f(F16, {2}), v(F32, {}, {2.5});
  RUN_OK("graft.zeros", {}, {&z});
  EXPECT_EQ(z.intValues(), (Ints{0, 0, 0, 0}));
  RUN_OK("graft.ones", {}, {&o});
  expectNear(o.values(), {1, 1, 1});
  RUN_OK("graft.full", {&v}, {&f});
  expectNear(f.values(), {2.5, 2.5});
  TestTensor a(I64, {4}), b(F32, {3}), strided(F32, {2, 2}, {}, {1, 0});
  RUN_OK("graft.arange", {}, {&a}, {int64_t(5), int64_t(-2)});
  EXPECT_EQ(a.intValues(), (Ints{5, 3, 1, -1}));
  RUN_OK("graft.arange", {}, {&b}, {0.5, 0.25});
  expectNear(b.values(), {0.5, 0.75, 1.0});
  RUN_OK("graft.full", {&v}, {&strided});
  expectNear(strided.values(), {2.5, 2.5, 2.5, 2.5});
}

TEST(ElementwiseErrors, Messages) {
  TestTensor a(F32, {2, 3}), b(F32, {4}), o(F32, {2, 3});
  EXPECT_EQ(runKernel("graft.add", {&a, &b}, {&o}),
            "graft.add: cannot broadcast shapes [2, 3] and [4]");
  TestTensor c(F32, {3}), o2(F32, {3, 3});
  EXPECT_EQ(runKernel("graft.add", {&a, &c}, {&o2}),
            "graft.add: output 0 has shape [3, 3], expected [2, 3]");
  TestTensor i(I32, {2, 3});
  EXPECT_EQ(runKernel("graft.add", {&a, &i}, {&o}),
            "graft.add: input 1 has dtype int32, expected float32");
  EXPECT_EQ(runKernel("graft.exp", {&i}, {&i}),
            "graft.exp: takes a floating-point tensor, got int32");
  EXPECT_EQ(runKernel("graft.add", {&a}, {&o}), "graft.add: expects 2 inputs, got 1");
  TestTensor bo(BOOL, {2, 3});
  EXPECT_EQ(runKernel("graft.add", {&bo, &bo}, {&bo}),
            "graft.add: does not take bool; cast to an integer type first");
  EXPECT_EQ(runKernel("graft.less", {&a, &i}, {&bo}),
            "graft.less: input dtypes float32 and int32 differ");
  TestTensor u16(DLDataType{kDLUInt, 16, 1}, {2});
  EXPECT_EQ(runKernel("graft.negative", {&u16}, {&u16}),
            "graft.negative: input 0 has unsupported dtype uint16");
  EXPECT_EQ(runKernel("graft.clip", {&a}, {&o}, {0.0}), "graft.clip: missing attr 'max'");
}

TEST(ElementwiseErrors, NullAndDeviceTensors) {
  TestTensor a(F32, {2}), o(F32, {2});
  const KernelInfo *k = lookupKernel("graft.add");
  ASSERT_NE(k, nullptr);
  DLTensor *in[] = {a.dl(), nullptr};
  DLTensor *out[] = {o.dl()};
  KernelArgs args{in, out, {}, {}};
  EXPECT_EQ(llvm::toString(k->fn(args)), "graft.add: input 1 is null");
  DLTensor gpu = *a.dl();
  gpu.device = {kDLCUDA, 0};
  DLTensor *in2[] = {a.dl(), &gpu};
  KernelArgs args2{in2, out, {}, {}};
  EXPECT_EQ(llvm::toString(k->fn(args2)),
            "graft.add: input 1 is not in host memory (device type 2)");
}

} // namespace
