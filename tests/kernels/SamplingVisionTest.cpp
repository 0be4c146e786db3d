//===- tests/kernels/SamplingVisionTest.cpp - var_len attention, sampling, NMS ===//
//
// The CPU kernels of nn.attention_var_len (against nn.attention on each
// sequence), multinomial_from_uniform (TVM's docstring example and the
// edges of get_sample_index) and vision.all_class_non_max_suppression (a
// hand-checked selection in both output formats), and their error messages.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

const AttrValue kNone = std::monostate();

TEST(AttentionVarLen, EachSequenceIsAnAttentionCall) {
  // Sequences of 2 and 3 queries against 3 and 1 keys; query row 5 is in
  // none.
  Vals qv, kv, vv;
  for (int i = 0; i < 12; ++i)
    qv.push_back(0.25 * ((i * 7) % 11) - 1);
  for (int i = 0; i < 8; ++i)
    kv.push_back(0.5 * ((i * 5) % 7) - 1.5);
  for (int i = 0; i < 4; ++i)
    vv.push_back(i + 1);
  TestTensor q(F64, {1, 6, 1, 2}, qv), k(F64, {1, 4, 1, 2}, kv), v(F64, {1, 4, 1, 1}, vv);
  TestTensor sq(I32, {3}, {0, 2, 5}), sk(I64, {3}, {0, 3, 4}), m(I32, {}, {3});
  for (AttrValue mask : {kNone, AttrValue(std::string("BottomRight"))}) {
    TestTensor o(F64, {1, 6, 1, 1});
    RUN_OK("graft.nn.attention_var_len", {&q, &k, &v, &sq, &m, &sk, &m}, {&o},
           {AttrValue(0.7), mask, kNone});
    Vals got = o.values(), want;
    auto slice = [](const Vals &x, int64_t from, int64_t rows, int64_t width) {
      return Vals(x.begin() + from * width, x.begin() + (from + rows) * width);
    };
    for (auto [q0, s, k0, skv] : {std::array<int64_t, 4>{0, 2, 0, 3}, {2, 3, 3, 1}}) {
      TestTensor qs(F64, {1, s, 1, 2}, slice(qv, q0, s, 2));
      TestTensor ks(F64, {1, skv, 1, 2}, slice(kv, k0, skv, 2));
      TestTensor vs(F64, {1, skv, 1, 1}, slice(vv, k0, skv, 1)), os(F64, {1, s, 1, 1});
      RUN_OK("graft.nn.attention", {&qs, &ks, &vs}, {&os}, {AttrValue(0.7), mask, kNone});
      for (double x : os.values())
        want.push_back(x);
    }
    want.push_back(0);
    EXPECT_EQ(got, want);
  }
}

TEST(AttentionVarLen, Errors) {
  TestTensor q(F32, {1, 5, 1, 2}), o(F32, {1, 5, 1, 2}), m(I32, {}, {3});
  TestTensor bad(I32, {3}, {0, 6, 5});
  EXPECT_EQ(
      runKernel("graft.nn.attention_var_len", {&q, &q, &q, &bad, &m}, {&o}, {kNone, kNone, kNone}),
      "graft.nn.attention_var_len: seqstart_q[1] is 6: the starts must be nondecreasing "
      "from 0 and at most 5");
  TestTensor q2(F32, {2, 5, 1, 2}), o2(F32, {2, 5, 1, 2}), s(I32, {2}, {0, 5});
  EXPECT_EQ(runKernel("graft.nn.attention_var_len", {&q2, &q2, &q2, &s, &m}, {&o2},
                      {kNone, kNone, kNone}),
            "graft.nn.attention_var_len: expects a batch of 1 (the sequences concatenated along "
            "axis 1), got [2, 5, 1, 2]");
  TestTensor s3(I32, {3}, {0, 2, 5}), s2(I32, {2}, {0, 5});
  EXPECT_EQ(runKernel("graft.nn.attention_var_len", {&q, &q, &q, &s3, &m, &s2, &m}, {&o},
                      {kNone, kNone, kNone}),
            "graft.nn.attention_var_len: seqstart_q has 3 entries, seqstart_k 2");
}

TEST(MultinomialFromUniform, TvmDocstringExampleAndEdges) {
  TestTensor prob(F32, {2, 3}, {0.2, 0.3, 0.5, 0.3, 0.4, 0.3});
  TestTensor u(F32, {4, 1}, {0.4, 0.9, 0.0, 0.99}), idx(I64, {4, 1}, {0, 1, -1, 0});
  TestTensor o(I32, {4, 1});
  RUN_OK("graft.multinomial_from_uniform", {&prob, &u, &idx}, {&o});
  // u = 0 takes the first index; 0.99 of row 0 is below 1.0 = 0.2+0.3+0.5.
  EXPECT_EQ(o.intValues(), (Ints{1, 2, 0, 2}));
  // Past the row's total: the last index.
  TestTensor small(F64, {1, 3}, {0.1, 0.1, 0.1}), uu(F64, {1, 1}, {0.5}), i0(I32, {1, 1}, {0});
  TestTensor o1(I64, {1, 1});
  RUN_OK("graft.multinomial_from_uniform", {&small, &uu, &i0}, {&o1});
  EXPECT_EQ(o1.intValues(), (Ints{2}));
  TestTensor far(I64, {1, 1}, {2}), uf(F32, {1, 1}, {0.5}), o2(I64, {1, 1});
  EXPECT_EQ(runKernel("graft.multinomial_from_uniform", {&prob, &uf, &far}, {&o2}),
            "graft.multinomial_from_uniform: sample_indices[0] is 2, out of range for 2 "
            "distributions");
}

/// Boxes 0 and 1 overlap (IoU 0.9), box 2 is apart; class 0 scores them
/// 0.9, 0.8, 0.7, class 1 0.1, 0.6, 0.95.
struct NmsInputs {
  explicit NmsInputs(double maxOut = 10, double iou = 0.5)
      : maxOut(I64, {}, {maxOut}), iou(F32, {}, {iou}) {}
  TestTensor boxes{F32, {1, 3, 4}, {0, 0, 2, 2, 0, 0, 2, 1.8, 5, 5, 6, 6}};
  TestTensor scores{F32, {1, 2, 3}, {0.9, 0.8, 0.7, 0.1, 0.6, 0.95}};
  TestTensor maxOut, iou, score{F32, {1}, {0.2}};
  std::vector<TestTensor *> all() { return {&boxes, &scores, &maxOut, &iou, &score}; }
};

TEST(AllClassNms, OnnxRowsThenZeros) {
  NmsInputs in;
  TestTensor rows(I64, {6, 3}), count(I64, {1});
  RUN_OK("graft.vision.all_class_non_max_suppression", in.all(), {&rows, &count},
         {std::string("onnx")});
  // Class 0: box 0, then box 2 (box 1 suppressed); class 1: box 2, box 1
  // (box 0's 0.1 is below the score threshold).
  EXPECT_EQ(rows.intValues(), (Ints{0, 0, 0, 0, 0, 2, 0, 1, 2, 0, 1, 1, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(count.intValues(), (Ints{4}));
  // At most one per class; no IoU threshold above 0 selects nothing.
  NmsInputs one(1);
  RUN_OK("graft.vision.all_class_non_max_suppression", one.all(), {&rows, &count},
         {std::string("onnx")});
  EXPECT_EQ(count.intValues(), (Ints{2}));
  NmsInputs zero(10, 0);
  RUN_OK("graft.vision.all_class_non_max_suppression", zero.all(), {&rows, &count},
         {std::string("onnx")});
  EXPECT_EQ(count.intValues(), (Ints{0}));
  EXPECT_EQ(rows.intValues(), Ints(18, 0));
}

TEST(AllClassNms, TensorflowPerBatch) {
  NmsInputs in;
  TestTensor idx(I64, {1, 6, 2}), sc(F32, {1, 6}), counts(I64, {1});
  RUN_OK("graft.vision.all_class_non_max_suppression", in.all(), {&idx, &sc, &counts},
         {std::string("tensorflow")});
  EXPECT_EQ(idx.intValues(), (Ints{0, 0, 0, 2, 1, 2, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(sc.values(), (Vals{0.9f, 0.7f, 0.95f, 0.6f, 0, 0}));
  EXPECT_EQ(counts.intValues(), (Ints{4}));
  TestTensor rows(I64, {6, 3}), count(I64, {1});
  EXPECT_EQ(runKernel("graft.vision.all_class_non_max_suppression", in.all(), {&rows, &count},
                      {std::string("coco")}),
            "graft.vision.all_class_non_max_suppression: output_format must be \"onnx\" or "
            "\"tensorflow\", got \"coco\"");
  EXPECT_EQ(runKernel("graft.vision.all_class_non_max_suppression", in.all(), {&rows, &count},
                      {std::string("tensorflow")}),
            "graft.vision.all_class_non_max_suppression: output_format \"tensorflow\" has 3 "
            "outputs, got 2");
}

} // namespace
