//===- tests/kernels/MatmulNNTest.cpp - matmul, softmax, norms ------------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

TEST(Matmul, TwoByTwo) {
  TestTensor a(F32, {2, 3}, {1, 2, 3, 4, 5, 6}), b(F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  TestTensor o(F32, {2, 2});
  RUN_OK("graft.matmul", {&a, &b}, {&o});
  expectNear(o.values(), {58, 64, 139, 154});
}

TEST(Matmul, TransposedOperandAndBatchBroadcast) {
  // b = [[7,8],[9,10],[11,12]] stored transposed; a has a batch of 2.
  TestTensor a(F64, {2, 1, 3}, {1, 2, 3, 1, 0, 0});
  TestTensor b(F64, {3, 2}, {7, 8, 9, 10, 11, 12}, {1, 0});
  TestTensor o(F64, {2, 1, 2});
  RUN_OK("graft.matmul", {&a, &b}, {&o});
  expectNear(o.values(), {58, 64, 7, 8});
}

TEST(Matmul, VectorOperands) {
  TestTensor v(I32, {3}, {1, 2, 3}), m(I32, {3, 2}, {1, 0, 0, 1, 1, 1});
  TestTensor vm(I32, {2}), dot(I32, {});
  RUN_OK("graft.matmul", {&v, &m}, {&vm});
  EXPECT_EQ(vm.intValues(), (Ints{4, 5}));
  RUN_OK("graft.matmul", {&v, &v}, {&dot});
  EXPECT_EQ(dot.intValues(), (Ints{14}));
  TestTensor mt(I32, {2, 3}, {1, 0, 1, 0, 1, 1}), mv(I32, {2});
  RUN_OK("graft.matmul", {&mt, &v}, {&mv});
  EXPECT_EQ(mv.intValues(), (Ints{4, 5}));
}

TEST(Matmul, HalfAccumulatesInFloatAndOutDtype) {
  std::vector<double> ones(4096, 1.0);
  TestTensor a(F16, {1, 4096}, ones), b(F16, {4096, 1}, ones), o(F16, {1, 1});
  RUN_OK("graft.matmul", {&a, &b}, {&o});
  expectNear(o.values(), {4096});
  TestTensor o32(F32, {1, 1});
  RUN_OK("graft.matmul", {&a, &b}, {&o32});
  expectNear(o32.values(), {4096});
}

TEST(Matmul, EmptyContraction) {
  TestTensor a(F32, {2, 0}), b(F32, {0, 3}), o(F32, {2, 3});
  RUN_OK("graft.matmul", {&a, &b}, {&o});
  expectNear(o.values(), {0, 0, 0, 0, 0, 0});
}

TEST(MatmulErrors, Messages) {
  TestTensor a(F32, {2, 3}), b(F32, {2, 3}), o(F32, {2, 3});
  EXPECT_EQ(runKernel("graft.matmul", {&a, &b}, {&o}),
            "graft.matmul: contraction dims differ: shapes [2, 3] and [2, 3]");
  TestTensor c(F32, {4, 3, 2}), d(F32, {5, 2, 1}), e(F32, {4, 3, 1});
  EXPECT_EQ(runKernel("graft.matmul", {&c, &d}, {&e}),
            "graft.matmul: cannot broadcast shapes [4] and [5]");
  TestTensor i(I32, {3, 2});
  EXPECT_EQ(runKernel("graft.matmul", {&a, &i}, {&o}),
            "graft.matmul: input 1 has dtype int32, expected float32");
}

TEST(NN, SoftmaxAndLogSoftmax) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 1000, 1000, -INFINITY}), o(F32, {2, 3});
  RUN_OK("graft.nn.softmax", {&x}, {&o}, {int64_t(-1)});
  double e1 = std::exp(-2.0), e2 = std::exp(-1.0), s = e1 + e2 + 1;
  expectNear(o.values(), {e1 / s, e2 / s, 1 / s, 0.5, 0.5, 0});
  RUN_OK("graft.nn.log_softmax", {&x}, {&o}, {int64_t(1)});
  expectNear(o.values(), {-2 - std::log(s), -1 - std::log(s), -std::log(s), -std::log(2.0),
                          -std::log(2.0), -INFINITY});
  TestTensor t(F64, {2, 2}, {0, 0, 0, std::log(3.0)}, {1, 0}), u(F64, {2, 2});
  RUN_OK("graft.nn.softmax", {&t}, {&u}, {int64_t(0)});
  expectNear(u.values(), {0.5, 0.25, 0.5, 0.75});
}

TEST(NN, LayerNorm) {
  TestTensor x(F32, {2, 2}, {1, 3, 2, 2}), g(F32, {2}, {1, 2}), b(F32, {2}, {0, 1});
  TestTensor o(F32, {2, 2});
  RUN_OK("graft.nn.layer_norm", {&x, &g, &b}, {&o}, {Ints{-1}, 1e-10, true, true});
  expectNear(o.values(), {-1, 3, 0, 1});
  RUN_OK("graft.nn.layer_norm", {&x, &g, &b}, {&o}, {Ints{1}, 1e-10, false, false});
  expectNear(o.values(), {-1, 1, 0, 0});
  // Normalize over both axes, listed out of order: gamma is [dim1, dim0].
  TestTensor g2(F32, {2, 2}, {1, 1, 1, 1}), b2(F32, {2, 2}, {0, 0, 0, 0});
  RUN_OK("graft.nn.layer_norm", {&x, &g2, &b2}, {&o}, {Ints{1, 0}, 1e-10, true, true});
  expectNear(o.values(), {-std::sqrt(2.0), std::sqrt(2.0), 0, 0}, 1e-5);
}

TEST(NN, RmsNormHalf) {
  TestTensor x(F16, {1, 2}, {3, 4}), w(F16, {2}, {1, 2}), o(F16, {1, 2});
  RUN_OK("graft.nn.rms_norm", {&x, &w}, {&o}, {Ints{-1}, 0.0});
  double r = std::sqrt(12.5);
  expectNear(o.values(), {3 / r, 8 / r}, 1e-3);
}

TEST(NNErrors, Messages) {
  TestTensor x(I32, {2}), o(I32, {2});
  EXPECT_EQ(runKernel("graft.nn.softmax", {&x}, {&o}, {int64_t(0)}),
            "graft.nn.softmax: takes a floating-point tensor, got int32");
  TestTensor y(F32, {2, 2}), g(F32, {3}), b(F32, {2}), z(F32, {2, 2});
  EXPECT_EQ(runKernel("graft.nn.layer_norm", {&y, &g, &b}, {&z}, {Ints{-1}, 1e-5, true, true}),
            "graft.nn.layer_norm: cannot broadcast gamma of shape [3] to [2]");
}

} // namespace
