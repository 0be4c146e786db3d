//===- tests/kernels/LateOpsTest.cpp - repeat ... einsum, by value --------===//
//
// The kernels of the ops TVM added after the core set: repeat, tile, flip,
// dynamic_strided_slice (host form), quantize/dequantize, topk and einsum,
// asserted against hand-computed values, with strided inputs and the
// errors each one reports.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

using graft::kernels::AttrValue;
const AttrValue kUnset{};

TEST(Repeat, AlongAnAxisOfATransposedInput) {
  // Logical [[1, 2, 3], [4, 5, 6]] stored transposed.
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0}), o(F32, {2, 6});
  RUN_OK("graft.repeat", {&x}, {&o}, {int64_t(2), int64_t(-1)});
  EXPECT_EQ(o.values(), (Vals{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}));
  TestTensor r(F32, {4, 3});
  RUN_OK("graft.repeat", {&x}, {&r}, {int64_t(2), int64_t(0)});
  EXPECT_EQ(r.values(), (Vals{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
}

TEST(Repeat, UnsetAxisRepeatsTheFlatteningAndZeroEmpties) {
  TestTensor x = TestTensor::ints(I16, {2, 2}, {1, 2, 3, 4}), o(I16, {8}), e(I16, {0});
  RUN_OK("graft.repeat", {&x}, {&o}, {int64_t(2), kUnset});
  EXPECT_EQ(o.intValues(), (Ints{1, 1, 2, 2, 3, 3, 4, 4}));
  RUN_OK("graft.repeat", {&x}, {&e}, {int64_t(0), kUnset});
  EXPECT_EQ(runKernel("graft.repeat", {&x}, {&o}, {int64_t(-1), kUnset}),
            "graft.repeat: repeats must not be negative, got -1");
  TestTensor bad(I16, {2, 5});
  EXPECT_EQ(runKernel("graft.repeat", {&x}, {&bad}, {int64_t(2), int64_t(1)}),
            "graft.repeat: output 0 has shape [2, 5], expected [2, 4]");
}

TEST(Tile, RepeatsAlignAtTheInnermostDim) {
  TestTensor x(F64, {2, 2}, {1, 2, 3, 4}), a(F64, {2, 4}), b(F64, {2, 2, 2});
  RUN_OK("graft.tile", {&x}, {&a}, {Ints{2}});
  EXPECT_EQ(a.values(), (Vals{1, 2, 1, 2, 3, 4, 3, 4}));
  RUN_OK("graft.tile", {&x}, {&b}, {Ints{2, 1, 1}});
  EXPECT_EQ(b.values(), (Vals{1, 2, 3, 4, 1, 2, 3, 4}));
  TestTensor c(F64, {4, 2});
  RUN_OK("graft.tile", {&x}, {&c}, {Ints{2, 1}});
  EXPECT_EQ(c.values(), (Vals{1, 2, 3, 4, 1, 2, 3, 4}));
}

TEST(Flip, ReversesOneAxis) {
  TestTensor x = TestTensor::ints(U8, {3, 2}, {1, 2, 3, 4, 5, 6}), o(U8, {3, 2});
  RUN_OK("graft.flip", {&x}, {&o}, {int64_t(0)});
  EXPECT_EQ(o.intValues(), (Ints{5, 6, 3, 4, 1, 2}));
  RUN_OK("graft.flip", {&x}, {&o}, {int64_t(-1)});
  EXPECT_EQ(o.intValues(), (Ints{2, 1, 4, 3, 6, 5}));
  EXPECT_EQ(runKernel("graft.flip", {&x}, {&o}, {int64_t(2)}),
            "graft.flip: axis 2 is out of range for rank 2");
}

TEST(PRelu, ScalesNegativesByTheAxisSlope) {
  TestTensor x(F64, {2, 2}, {-1, 2, -3, -4}), a(F64, {2}, {0.5, 0.25}), o(F64, {2, 2});
  RUN_OK("graft.nn.prelu", {&x, &a}, {&o}, {int64_t(1)});
  EXPECT_EQ(o.values(), (Vals{-0.5, 2, -1.5, -1}));
  RUN_OK("graft.nn.prelu", {&x, &a}, {&o}, {int64_t(0)});
  EXPECT_EQ(o.values(), (Vals{-0.5, 2, -0.75, -1}));
  TestTensor b(F64, {3}, {1, 1, 1});
  EXPECT_EQ(runKernel("graft.nn.prelu", {&x, &b}, {&o}, {int64_t(1)}),
            "graft.nn.prelu: alpha must be 1-D of length 2 (the axis's extent)");
}

TEST(DynamicStridedSlice, TheCountKernelWritesTheShapeTheFillKernelSlices) {
  std::vector<double> v(20);
  for (int i = 0; i < 20; ++i)
    v[size_t(i)] = i;
  TestTensor x(F32, {4, 5}, v), sh(I64, {2});
  TestTensor b = TestTensor::ints(I64, {2}, {3, 1}), e = TestTensor::ints(I32, {2}, {-5, 100}),
             s = TestTensor::ints(I64, {2}, {-1, 2});
  RUN_OK("graft.host.dynamic_strided_slice_count", {&x, &b, &e, &s}, {&sh});
  EXPECT_EQ(sh.intValues(), (Ints{4, 2}));
  TestTensor o(F32, {4, 2});
  RUN_OK("graft.host.dynamic_strided_slice", {&x, &b, &e, &s}, {&o});
  EXPECT_EQ(o.values(), (Vals{16, 18, 11, 13, 6, 8, 1, 3}));
  // Fewer entries than dims: the rest stay whole.
  TestTensor b1 = TestTensor::ints(I64, {1}, {1}), e1 = TestTensor::ints(I64, {1}, {3}),
             s1 = TestTensor::ints(I64, {1}, {1});
  RUN_OK("graft.host.dynamic_strided_slice_count", {&x, &b1, &e1, &s1}, {&sh});
  EXPECT_EQ(sh.intValues(), (Ints{2, 5}));
  TestTensor zero = TestTensor::ints(I64, {2}, {1, 0});
  EXPECT_EQ(runKernel("graft.host.dynamic_strided_slice", {&x, &b, &e, &zero}, {&o}),
            "graft.host.dynamic_strided_slice: stride of axis 1 is 0");
  TestTensor fb(F32, {2}, {0, 0});
  EXPECT_EQ(runKernel("graft.host.dynamic_strided_slice_count", {&x, &fb, &e, &s}, {&sh}),
            "graft.host.dynamic_strided_slice_count: begin must be integers, got float32");
}

TEST(Quantize, RoundsHalfToEvenAddsTheZeroPointAndSaturates) {
  TestTensor x(F32, {6}, {2.5, 3.5, -2.5, 1000, -1000, NAN}), s(F32, {}, {1}),
      z = TestTensor::ints(I8, {}, {0}), o(I8, {6});
  RUN_OK("graft.quantize", {&x, &s, &z}, {&o}, {int64_t(-1)});
  // NaN saturates to the maximum, as TIR's min/max compile.
  EXPECT_EQ(o.intValues(), (Ints{2, 4, -2, 127, -128, 127}));
  TestTensor z5 = TestTensor::ints(U8, {1}, {5}), u(U8, {6});
  RUN_OK("graft.quantize", {&x, &s, &z5}, {&u}, {int64_t(0)});
  EXPECT_EQ(u.intValues(), (Ints{7, 9, 3, 255, 0, 255}));
}

TEST(Quantize, PerAxisScaleAndZeroPointAndAFloatOutput) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6}), s(F32, {3}, {0.5, 2, 4}),
      z = TestTensor::ints(I32, {3}, {0, 1, -1}), o(I16, {2, 3});
  RUN_OK("graft.quantize", {&x, &s, &z}, {&o}, {int64_t(1)});
  // 1/0.5=2, 2/2=1 +1, 3/4=0.75 -> 1, -1; 8, 2.5 -> 2 +1, 1.5 -> 2, -1.
  EXPECT_EQ(o.intValues(), (Ints{2, 2, 0, 8, 3, 1}));
  TestTensor h(F16, {2, 3}), zf(F32, {}, {0.25});
  RUN_OK("graft.quantize", {&x, &s, &zf}, {&h}, {int64_t(1)});
  expectNear(h.values(), {2.25, 1.25, 1.0, 8.25, 2.75, 1.75});
  TestTensor bad(F32, {2});
  EXPECT_EQ(runKernel("graft.quantize", {&x, &bad, &z}, {&o}, {int64_t(1)}),
            "graft.quantize: scale must be a scalar or have 3 elements (dim 1 of the data), "
            "got shape [2]");
  TestTensor xi = TestTensor::ints(I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(runKernel("graft.quantize", {&xi, &s, &z}, {&o}, {int64_t(1)}),
            "graft.quantize: data and scale must be floating-point, got int32 and float32");
}

TEST(Dequantize, SubtractsInInt32MultipliesInFloat32AndSaturatesHalf) {
  TestTensor x = TestTensor::ints(I8, {2, 2}, {-128, 127, 0, 5}), s(F32, {2}, {0.5, 1000}),
             z = TestTensor::ints(I8, {2}, {127, -1}), o(F32, {2, 2});
  RUN_OK("graft.dequantize", {&x, &s, &z}, {&o}, {int64_t(1)});
  // int32 difference: -128 - 127 = -255 (no int8 wrap).
  EXPECT_EQ(o.values(), (Vals{-127.5, 128000, -63.5, 6000}));
  TestTensor h(F16, {2, 2});
  RUN_OK("graft.dequantize", {&x, &s, &z}, {&h}, {int64_t(1)});
  EXPECT_EQ(h.values(), (Vals{-127.5, 65504, -63.5, 6000}));
  TestTensor xf(F32, {2}, {NAN, 1.5}), sf(F32, {}, {2}), zf(F32, {}, {0.5}), hf(F16, {2});
  RUN_OK("graft.dequantize", {&xf, &sf, &zf}, {&hf}, {int64_t(0)});
  EXPECT_EQ(hf.values(), (Vals{65504, 2}));
  TestTensor i(I32, {2});
  EXPECT_EQ(runKernel("graft.dequantize", {&xf, &sf, &zf}, {&i}, {int64_t(0)}),
            "graft.dequantize: output must be floating-point, got int32");
}

TEST(TopK, BothValuesAndIndicesStableWithNaN) {
  TestTensor x(F32, {2, 4}, {1, NAN, 3, 3, 2, 2, 5, -1});
  TestTensor v(F32, {2, 2}), i(I32, {2, 2});
  RUN_OK("graft.topk", {&x}, {&v, &i}, {int64_t(2), int64_t(-1), std::string("both"), true});
  expectNear(v.values(), {NAN, 3, 5, 2});
  EXPECT_EQ(i.intValues(), (Ints{1, 2, 2, 0}));
  TestTensor s(F32, {2, 3});
  RUN_OK("graft.topk", {&x}, {&s}, {int64_t(3), int64_t(1), std::string("values"), false});
  expectNear(s.values(), {1, 3, 3, -1, 2, 2});
}

TEST(TopK, IndicesAlongAxisZeroAndKBelowOneTakesAll) {
  TestTensor x = TestTensor::ints(I64, {3, 2}, {4, 1, 9, 1, 4, 0}), i(I64, {2, 2});
  RUN_OK("graft.topk", {&x}, {&i}, {int64_t(2), int64_t(0), std::string("indices"), true});
  EXPECT_EQ(i.intValues(), (Ints{1, 0, 0, 1}));
  TestTensor all(I64, {3, 2});
  RUN_OK("graft.topk", {&x}, {&all}, {int64_t(0), int64_t(0), std::string("values"), false});
  EXPECT_EQ(all.intValues(), (Ints{4, 0, 4, 1, 9, 1}));
  EXPECT_EQ(
      runKernel("graft.topk", {&x}, {&all}, {int64_t(0), int64_t(0), std::string("both"), false}),
      "graft.topk: ret_type 'both' has 2 outputs, got 1");
  EXPECT_EQ(
      runKernel("graft.topk", {&x}, {&all}, {int64_t(0), int64_t(0), std::string("all"), false}),
      "graft.topk: unknown ret_type 'all'");
}

TEST(Einsum, MatmulTraceDiagonalAndThreeOperands) {
  TestTensor a(F32, {2, 3}, {1, 2, 3, 4, 5, 6}), b(F32, {3, 2}, {1, 0, 0, 1, 1, 1}), m(F32, {2, 2});
  RUN_OK("graft.einsum", {&a, &b}, {&m}, {std::string("ij,jk->ik")});
  EXPECT_EQ(m.values(), (Vals{4, 5, 10, 11}));
  TestTensor sq(F32, {2, 2}, {1, 2, 3, 4}), tr(F32, {}), dg(F32, {2});
  RUN_OK("graft.einsum", {&sq}, {&tr}, {std::string("ii")});
  EXPECT_EQ(tr.values(), (Vals{5}));
  RUN_OK("graft.einsum", {&sq}, {&dg}, {std::string("ii->i")});
  EXPECT_EQ(dg.values(), (Vals{1, 4}));
  // Implicit output "ik" of a chain of three: a (2x3) b (3x2) sq (2x2).
  TestTensor c(F32, {2, 2});
  RUN_OK("graft.einsum", {&a, &b, &sq}, {&c}, {std::string("ij,jk,kl")});
  // (a b) = [[4, 5], [10, 11]] times sq = [[19, 28], [43, 64]].
  EXPECT_EQ(c.values(), (Vals{19, 28, 43, 64}));
  // Transposed view of `a` as an operand: "ji->ij" gives back [[1, 4], ...].
  TestTensor t(F32, {3, 2});
  RUN_OK("graft.einsum", {&a}, {&t}, {std::string("ij->ji")});
  EXPECT_EQ(t.values(), (Vals{1, 4, 2, 5, 3, 6}));
}

TEST(Einsum, IntegersWrapAndBadSubscriptsAreErrors) {
  TestTensor a = TestTensor::ints(I8, {2}, {100, 100}), o(I8, {});
  RUN_OK("graft.einsum", {&a, &a}, {&o}, {std::string("i,i->")});
  EXPECT_EQ(o.intValues(), (Ints{int8_t(uint8_t(20000 % 256))}));
  TestTensor b(I8, {3});
  EXPECT_EQ(runKernel("graft.einsum", {&a, &b}, {&o}, {std::string("i,i->")}),
            "graft.einsum: label 'i' has extents 2 and 3");
  EXPECT_EQ(runKernel("graft.einsum", {&a}, {&o}, {std::string("...i->")}),
            "graft.einsum: subscripts with an ellipsis are not supported: \"...i->\"");
  EXPECT_EQ(runKernel("graft.einsum", {&a}, {&o}, {std::string("ij->")}),
            "graft.einsum: operand 0 has rank 1 but its subscript has more labels");
  EXPECT_EQ(runKernel("graft.einsum", {&a}, {&o}, {std::string("i->k")}),
            "graft.einsum: output label 'k' is not an input label");
}

} // namespace
