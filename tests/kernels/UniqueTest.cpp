//===- tests/kernels/UniqueTest.cpp - graft.host.unique{,_count} -----------===//

#include "KernelTestUtil.h"

#include <cmath>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

/// sorted, return_index, return_inverse, return_counts, axis (unset: none).
std::vector<AttrValue> uniqueAttrs(bool sorted, bool index, bool inverse, bool counts,
                                   std::optional<int64_t> axis = std::nullopt) {
  std::vector<AttrValue> a{sorted, index, inverse, counts, AttrValue()};
  if (axis)
    a[4] = *axis;
  return a;
}

std::vector<AttrValue> axisAttr(std::optional<int64_t> axis) {
  return {axis ? AttrValue(*axis) : AttrValue()};
}

TEST(Unique, FlattenedSortedAndFirstOccurrence) {
  TestTensor x(F32, {2, 4}, {3, 1, 3, 2, 1, 5, 3, 0}), n(I64, {});
  RUN_OK("graft.host.unique_count", {&x}, {&n}, axisAttr(std::nullopt));
  EXPECT_EQ(n.intValues(), (Ints{5}));
  TestTensor v(F32, {5}), idx(I64, {5}), inv(I64, {8}), cnt(I64, {5});
  RUN_OK("graft.host.unique", {&x}, {&v, &idx, &inv, &cnt}, uniqueAttrs(true, true, true, true));
  expectNear(v.values(), {0, 1, 2, 3, 5});
  EXPECT_EQ(idx.intValues(), (Ints{7, 1, 3, 0, 5}));
  EXPECT_EQ(inv.intValues(), (Ints{3, 1, 3, 2, 1, 4, 3, 0}));
  EXPECT_EQ(cnt.intValues(), (Ints{1, 2, 1, 3, 1}));
  // sorted=False: groups in order of first occurrence (TVM's reordering).
  RUN_OK("graft.host.unique", {&x}, {&v, &idx, &inv, &cnt}, uniqueAttrs(false, true, true, true));
  expectNear(v.values(), {3, 1, 2, 5, 0});
  EXPECT_EQ(idx.intValues(), (Ints{0, 1, 3, 5, 7}));
  EXPECT_EQ(inv.intValues(), (Ints{0, 1, 0, 2, 1, 3, 0, 4}));
  EXPECT_EQ(cnt.intValues(), (Ints{3, 2, 1, 1, 1}));
  // Only the requested outputs, in the order values, index, inverse, counts.
  TestTensor only(F32, {5});
  RUN_OK("graft.host.unique", {&x}, {&only, &cnt}, uniqueAttrs(false, false, false, true));
  expectNear(only.values(), {3, 1, 2, 5, 0});
  EXPECT_EQ(cnt.intValues(), (Ints{3, 2, 1, 1, 1}));
}

TEST(Unique, SlicesAlongAnAxis) {
  // Rows 0 and 2 are equal; columns compare lexicographically.
  TestTensor x = TestTensor::ints(I32, {3, 3}, {1, 0, 1, 0, 2, 0, 1, 0, 1}), n(I64, {});
  RUN_OK("graft.host.unique_count", {&x}, {&n}, axisAttr(0));
  EXPECT_EQ(n.intValues(), (Ints{2}));
  TestTensor rows(I32, {2, 3}), inv(I64, {3});
  RUN_OK("graft.host.unique", {&x}, {&rows, &inv}, uniqueAttrs(true, false, true, false, 0));
  EXPECT_EQ(rows.intValues(), (Ints{0, 2, 0, 1, 0, 1}));
  EXPECT_EQ(inv.intValues(), (Ints{1, 0, 1}));
  RUN_OK("graft.host.unique", {&x}, {&rows, &inv}, uniqueAttrs(false, false, true, false, 0));
  EXPECT_EQ(rows.intValues(), (Ints{1, 0, 1, 0, 2, 0}));
  EXPECT_EQ(inv.intValues(), (Ints{0, 1, 0}));
  RUN_OK("graft.host.unique_count", {&x}, {&n}, axisAttr(-1));
  EXPECT_EQ(n.intValues(), (Ints{2}));
  TestTensor cols(I32, {3, 2}), cnt(I64, {2});
  RUN_OK("graft.host.unique", {&x}, {&cols, &cnt}, uniqueAttrs(true, false, false, true, -1));
  EXPECT_EQ(cols.intValues(), (Ints{0, 1, 2, 0, 0, 1}));
  EXPECT_EQ(cnt.intValues(), (Ints{1, 2}));
  // A transposed input reads through its strides.
  TestTensor t = TestTensor::ints(I64, {2, 2}, {5, 5, 7, 7}, {1, 0}), tn(I64, {});
  RUN_OK("graft.host.unique_count", {&t}, {&tn}, axisAttr(1));
  EXPECT_EQ(tn.intValues(), (Ints{1}));
}

TEST(Unique, NaNZerosBoolAndEmpty) {
  // NaNs form one group, ordered last; -0.0 and 0.0 are one value whose
  // first occurrence's bits are kept.
  TestTensor x(F64, {6}, {NAN, 1, -0.0, NAN, 0.0, 1}), n(I64, {});
  RUN_OK("graft.host.unique_count", {&x}, {&n}, axisAttr(std::nullopt));
  EXPECT_EQ(n.intValues(), (Ints{3}));
  TestTensor v(F64, {3}), cnt(I64, {3});
  RUN_OK("graft.host.unique", {&x}, {&v, &cnt}, uniqueAttrs(true, false, false, true));
  auto got = v.values();
  EXPECT_TRUE(got[0] == 0.0 && std::signbit(got[0]));
  EXPECT_EQ(got[1], 1.0);
  EXPECT_TRUE(std::isnan(got[2]));
  EXPECT_EQ(cnt.intValues(), (Ints{2, 2, 2}));

  TestTensor b = TestTensor::ints(BOOL, {4}, {1, 0, 1, 1}), bv(BOOL, {2}), bi(I64, {2});
  RUN_OK("graft.host.unique", {&b}, {&bv, &bi}, uniqueAttrs(false, true, false, false));
  EXPECT_EQ(bv.intValues(), (Ints{1, 0}));
  EXPECT_EQ(bi.intValues(), (Ints{0, 1}));

  TestTensor e(F16, {0, 3}), en(I64, {}), ev(F16, {0}), einv(I64, {0});
  RUN_OK("graft.host.unique_count", {&e}, {&en}, axisAttr(std::nullopt));
  EXPECT_EQ(en.intValues(), (Ints{0}));
  RUN_OK("graft.host.unique", {&e}, {&ev, &einv}, uniqueAttrs(true, false, true, false));
  // Along an axis of empty slices every slice is equal: one group.
  TestTensor z(BF16, {3, 0}), zv(BF16, {1, 0}), zc(I64, {1});
  RUN_OK("graft.host.unique_count", {&z}, {&en}, axisAttr(0));
  EXPECT_EQ(en.intValues(), (Ints{1}));
  RUN_OK("graft.host.unique", {&z}, {&zv, &zc}, uniqueAttrs(true, false, false, true, 0));
  EXPECT_EQ(zc.intValues(), (Ints{3}));
  // A 0-d input is one item.
  TestTensor s = TestTensor::ints(I8, {}, {-4}), sv(I8, {1});
  RUN_OK("graft.host.unique", {&s}, {&sv}, uniqueAttrs(true, false, false, false));
  EXPECT_EQ(sv.intValues(), (Ints{-4}));
}

TEST(Unique, Errors) {
  TestTensor x(F32, {2, 2}, {1, 2, 2, 1}), v(F32, {2}), n(I64, {});
  EXPECT_EQ(runKernel("graft.host.unique", {&x}, {&v}, uniqueAttrs(true, true, false, false)),
            "graft.host.unique: the return flags ask for 2 outputs, got 1");
  TestTensor wrong(F32, {3});
  EXPECT_EQ(runKernel("graft.host.unique", {&x}, {&wrong}, uniqueAttrs(true, false, false, false)),
            "graft.host.unique: output 0 has shape [3], expected [2]");
  TestTensor idx(F32, {2});
  EXPECT_EQ(runKernel("graft.host.unique", {&x}, {&v, &idx}, uniqueAttrs(true, true, false, false)),
            "graft.host.unique: output 1 has dtype float32, expected int64");
  EXPECT_EQ(runKernel("graft.host.unique_count", {&x}, {&n}, axisAttr(2)),
            "graft.host.unique_count: axis 2 is out of range for rank 2");
  TestTensor s(F32, {}, {1});
  EXPECT_EQ(runKernel("graft.host.unique_count", {&s}, {&n}, axisAttr(0)),
            "graft.host.unique_count: axis 0 given for a 0-d input");
}

} // namespace
