//===- tests/kernels/LayoutTest.cpp - Data movement kernels ---------------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const AttrValue kUnset = std::monostate{};

TEST(Layout, PermuteDims) {
  TestTensor x(F32, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  TestTensor o(F32, {2, 2, 3});
  RUN_OK("graft.permute_dims", {&x}, {&o}, {Ints{2, 0, 1}});
  expectNear(o.values(), {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11});
  TestTensor m(I64, {2, 3}, {1, 2, 3, 4, 5, 6}), t(I64, {3, 2});
  RUN_OK("graft.permute_dims", {&m}, {&t}, {kUnset});
  EXPECT_EQ(t.intValues(), (Ints{1, 4, 2, 5, 3, 6}));
}

TEST(Layout, ReshapeFamilyOnStridedInput) {
  // Logical [[1,2,3],[4,5,6]] stored transposed: reshape follows logical order.
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 0});
  TestTensor r(F32, {3, 2}), f(F32, {6}), e(F32, {2, 1, 3}), s(F32, {2, 3});
  RUN_OK("graft.reshape", {&x}, {&r});
  expectNear(r.values(), {1, 2, 3, 4, 5, 6});
  RUN_OK("graft.flatten", {&x}, {&f});
  expectNear(f.values(), {1, 2, 3, 4, 5, 6});
  RUN_OK("graft.expand_dims", {&x}, {&e}, {Ints{1}});
  expectNear(e.values(), {1, 2, 3, 4, 5, 6});
  RUN_OK("graft.squeeze", {&e}, {&s}, {Ints{1}});
  expectNear(s.values(), {1, 2, 3, 4, 5, 6});
  TestTensor one(F32, {1, 1, 1}, {7}), sc(F32, {});
  RUN_OK("graft.squeeze", {&one}, {&sc}, {kUnset});
  expectNear(sc.values(), {7});
  EXPECT_EQ(runKernel("graft.reshape", {&x}, {&f}), "");
  TestTensor bad(F32, {4});
  EXPECT_EQ(runKernel("graft.reshape", {&x}, {&bad}),
            "graft.reshape: cannot reshape [2, 3] (6 elements) to [4]");
  EXPECT_EQ(runKernel("graft.expand_dims", {&x}, {&r}, {Ints{1}}),
            "graft.expand_dims: output 0 has shape [3, 2], expected [2, 1, 3]");
}

TEST(Layout, BroadcastTo) {
  TestTensor x(BF16, {2, 1}, {1, 2}), o(BF16, {3, 2, 2});
  RUN_OK("graft.broadcast_to", {&x}, {&o});
  expectNear(o.values(), {1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2});
  TestTensor bad(BF16, {2, 3}), y(BF16, {3, 1});
  EXPECT_EQ(runKernel("graft.broadcast_to", {&y}, {&bad}),
            "graft.broadcast_to: cannot broadcast input 0 of shape [3, 1] to [2, 3]");
}

TEST(Layout, ConcatAndSplit) {
  TestTensor a(I32, {2, 1}, {1, 2}), b(I32, {2, 2}, {3, 4, 5, 6}, {1, 0}), e(I32, {2, 0});
  TestTensor o(I32, {2, 3});
  RUN_OK("graft.concat", {&a, &e, &b}, {&o}, {int64_t(-1)});
  EXPECT_EQ(o.intValues(), (Ints{1, 3, 4, 2, 5, 6}));
  TestTensor flat(I32, {6});
  RUN_OK("graft.concat", {&a, &b}, {&flat}, {kUnset});
  EXPECT_EQ(flat.intValues(), (Ints{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(runKernel("graft.concat", {&a, &flat}, {&o}, {int64_t(1)}),
            "graft.concat: input 1 has shape [6], which does not match input 0 "
            "[2, 1] outside axis 1");

  TestTensor p(I32, {2, 1}), q(I32, {2, 2});
  RUN_OK("graft.split", {&o}, {&p, &q}, {Ints{1}, int64_t(1)});
  EXPECT_EQ(p.intValues(), (Ints{1, 2}));
  EXPECT_EQ(q.intValues(), (Ints{3, 4, 5, 6}));
  TestTensor r0(I32, {1, 3}), r1(I32, {1, 3});
  RUN_OK("graft.split", {&o}, {&r0, &r1}, {int64_t(2), int64_t(0)});
  EXPECT_EQ(r1.intValues(), (Ints{2, 5, 6}));
  EXPECT_EQ(runKernel("graft.split", {&o}, {&r0, &r1}, {int64_t(2), int64_t(1)}),
            "graft.split: cannot split a dim of 3 into 2 equal sections");
}

TEST(Layout, StridedSlice) {
  TestTensor x(F32, {2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  TestTensor o(F32, {2, 2});
  RUN_OK("graft.strided_slice", {&x}, {&o}, {Ints{1}, Ints{-1}, Ints{0}, Ints{-2}});
  expectNear(o.values(), {4, 2, 6 + 3, 7});
  TestTensor p(F32, {1, 3});
  RUN_OK("graft.strided_slice", {&x}, {&p}, {Ints{0, 1}, Ints{1, 1}, Ints{100, 4}, kUnset});
  expectNear(p.values(), {6, 7, 8});
  TestTensor empty(F32, {2, 0});
  RUN_OK("graft.strided_slice", {&x}, {&empty}, {Ints{1}, Ints{3}, Ints{1}, Ints{1}});
  EXPECT_EQ(runKernel("graft.strided_slice", {&x}, {&o}, {Ints{1}, Ints{0}, Ints{2}, Ints{0}}),
            "graft.strided_slice: stride of axis 1 is 0");
  // Steps past any tensor's extent take one element (the vm_run fuzz target
  // found the byte stride times the step overflowing, and |INT64_MIN|).
  TestTensor one(F32, {2, 1});
  for (int64_t step : {int64_t(7022237718977445889), INT64_MAX, INT64_MIN + 1, INT64_MIN}) {
    int64_t begin = step > 0 ? 1 : -2;
    RUN_OK("graft.strided_slice", {&x}, {&one},
           {Ints{1}, Ints{begin}, Ints{step > 0 ? 5 : -6}, Ints{step}});
    expectNear(one.values(), step > 0 ? std::vector<double>{1, 6} : std::vector<double>{3, 8});
  }
}

TEST(Layout, TakeModes) {
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  TestTensor idx = TestTensor::ints(I32, {2, 2}, {2, -1, 0, 1}), o(F32, {2, 2, 2});
  RUN_OK("graft.take", {&x, &idx}, {&o}, {int64_t(1), std::string("fast")});
  expectNear(o.values(), {3, 3, 1, 2, 6, 6, 4, 5});
  TestTensor far = TestTensor::ints(I64, {3}, {4, -4, 1}), w(F32, {2, 3});
  RUN_OK("graft.take", {&x, &far}, {&w}, {int64_t(1), std::string("wrap")});
  expectNear(w.values(), {2, 3, 2, 5, 6, 5});
  RUN_OK("graft.take", {&x, &far}, {&w}, {int64_t(1), std::string("clip")});
  expectNear(w.values(), {3, 1, 2, 6, 4, 5});
  RUN_OK("graft.take", {&x, &far}, {&w}, {int64_t(1), std::string("nan")});
  expectNear(w.values(), {NAN, NAN, 2, NAN, NAN, 5});
  TestTensor f(F32, {3});
  RUN_OK("graft.take", {&x, &far}, {&f}, {kUnset, std::string("fast")});
  expectNear(f.values(), {5, 3, 2});
  EXPECT_EQ(runKernel("graft.take", {&x, &far}, {&w}, {int64_t(1), std::string("fast")}),
            "graft.take: index 4 is out of range for a dim of 3");
}

TEST(Layout, TrilTriuDiagonalOffsets) {
  TestTensor x(F32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), o(F32, {3, 3});
  RUN_OK("graft.tril", {&x}, {&o}, {int64_t(0)});
  expectNear(o.values(), {1, 0, 0, 4, 5, 0, 7, 8, 9});
  RUN_OK("graft.tril", {&x}, {&o}, {int64_t(-1)});
  expectNear(o.values(), {0, 0, 0, 4, 0, 0, 7, 8, 0});
  RUN_OK("graft.triu", {&x}, {&o}, {int64_t(1)});
  expectNear(o.values(), {0, 2, 3, 0, 0, 6, 0, 0, 0});
  RUN_OK("graft.triu", {&x}, {&o}, {}); // k defaults to 0.
  expectNear(o.values(), {1, 2, 3, 0, 5, 6, 0, 0, 9});
  // Batched, with the input stored with its dims reversed.
  TestTensor b =
      TestTensor::ints(I8, {2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 1, 0});
  TestTensor bo(I8, {2, 2, 3});
  RUN_OK("graft.triu", {&b}, {&bo}, {int64_t(0)});
  EXPECT_EQ(bo.intValues(), (Ints{1, 2, 3, 0, 5, 6, 7, 8, 9, 0, 11, 12}));
  RUN_OK("graft.tril", {&b}, {&bo}, {int64_t(5)});
  EXPECT_EQ(bo.intValues(), (Ints{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  TestTensor v(F32, {3}), vo(F32, {3});
  EXPECT_EQ(runKernel("graft.tril", {&v}, {&vo}, {int64_t(0)}),
            "graft.tril: needs at least 2 dims, got shape [3]");
}

} // namespace
