//===- tests/cuda/OpsBatchDTest.cpp - attention_var_len, sampling, NMS ----===//
//
// The CUDA kernels of nn.attention_var_len, multinomial_from_uniform and
// vision.all_class_non_max_suppression against the CPU kernels, on random
// inputs. Bounds: multinomial_from_uniform and NMS are exact (integer
// outputs; NMS's float32 scores are copies): the CUDA kernels repeat the CPU
// kernels' roundings with explicitly rounded intrinsics. attention_var_len
// computes in double in the CPU kernel's order without fused multiply-adds;
// only the device's exp may differ in the last bit of a double, so the
// results may differ by the rounding of that: 2 ulp of the output dtype
// (float16, bfloat16, float32), 64 ulp for float64.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

Bound attentionBound(DLDataType t) { return {t.bits == 64 ? 64.0 : 2.0, 0}; }

TEST(CudaOpsBatchD, AttentionVarLenEveryMaskAndDType) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(71);
  // Sequences of 3, 0, 6 and 3 queries (row 12 belongs to none) against 4,
  // 2, 0 and 5 keys.
  TestTensor sq(I32, {5}, {0, 3, 3, 9, 12}), sk(I64, {5}, {0, 4, 6, 6, 11});
  TestTensor mq(I32, {}, {6}), mk(I32, {}, {5});
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor q = randomTensor(t, {1, 13, 4, 8}, rng, -2, 2);
    TestTensor k = randomTensor(t, {1, 11, 2, 8}, rng, -2, 2);
    TestTensor v = randomTensor(t, {1, 11, 2, 6}, rng, -2, 2);
    for (const char *mask : {"", "TopLeft", "BottomRight"}) {
      SCOPED_TRACE(mask);
      AttrValue m = *mask ? AttrValue(std::string(mask)) : AttrValue(std::monostate());
      for (AttrValue scale : {AttrValue(std::monostate()), AttrValue(0.3)}) {
        TestTensor c(t, {1, 13, 4, 6}), g(t, {1, 13, 4, 6});
        expectCudaMatchesCpu("graft.nn.attention_var_len", {&q, &k, &v, &sq, &mq, &sk, &mk}, {&c},
                             {&g}, {scale, m, std::monostate()}, attentionBound(t));
      }
      // The key starts default to the query's.
      TestTensor c(t, {1, 13, 4, 8}), g(t, {1, 13, 4, 8});
      expectCudaMatchesCpu("graft.nn.attention_var_len", {&q, &q, &q, &sq, &mq}, {&c}, {&g},
                           {std::monostate(), m, std::monostate()}, attentionBound(t));
    }
  }
  TestTensor q2(F32, {2, 4, 1, 8}), o2(F32, {2, 4, 1, 8}), s2(I32, {2}, {0, 4});
  std::string err = runCuda("graft.nn.attention_var_len", {&q2, &q2, &q2, &s2, &mq}, {&o2},
                            {std::monostate(), std::monostate(), std::monostate()});
  EXPECT_NE(err.find("expects a batch of 1"), std::string::npos) << err;
}

TEST(CudaOpsBatchD, MultinomialFromUniformEveryDType) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(72);
  for (DLDataType pt : kFloatTypes)
    for (DLDataType ut : {F16, F32, F64})
      for (DLDataType it : {I32, I64})
        for (DLDataType ot : {I32, I64}) {
          SCOPED_TRACE(typeName(pt) + " " + typeName(ut) + " " + typeName(it) + " " + typeName(ot));
          // Rows summing to about 1 to 2: some samples fall past the end.
          TestTensor prob = randomTensor(pt, {5, 33}, rng, 0, 0.06);
          TestTensor u = randomTensor(ut, {40, 1}, rng, 0, 1);
          TestTensor idx = randomTensor(it, {40, 1}, rng, -5, 4);
          TestTensor c(ot, {40, 1}), g(ot, {40, 1});
          expectCudaMatchesCpu("graft.multinomial_from_uniform", {&prob, &u, &idx}, {&c}, {&g});
        }
  TestTensor prob(F32, {2, 3}), u(F32, {1, 1}), idx(I64, {1, 1}, {2}), o(I64, {1, 1});
  std::string err = runCuda("graft.multinomial_from_uniform", {&prob, &u, &idx}, {&o});
  EXPECT_NE(err.find("out of range for 2 distributions"), std::string::npos) << err;
}

TEST(CudaOpsBatchD, AllClassNmsBothFormats) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(73);
  const int64_t b = 3, c = 4, n = 37;
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    // Integer corners: overlaps tie exactly; scores from 16 levels: ties
    // in the sort keep box order.
    TestTensor corners = randomTensor(F64, {b, n, 4}, rng, 0, 12);
    std::vector<double> bv = corners.values();
    TestTensor boxes(t, {b, n, 4}, bv);
    TestTensor levels = randomTensor(F64, {b, c, n}, rng, 0, 15);
    std::vector<double> sv = levels.values();
    for (double &x : sv)
      x /= 16;
    TestTensor scores(t, {b, c, n}, sv);
    for (int64_t maxOut : {int64_t(3), int64_t(100)})
      for (double iou : {0.0, 0.25, 0.5}) {
        SCOPED_TRACE("max " + std::to_string(maxOut) + " iou " + std::to_string(iou));
        TestTensor m(I64, {}, {double(maxOut)}), it(F32, {1}, {iou}), st(F32, {}, {0.2});
        std::vector<TestTensor *> in = {&boxes, &scores, &m, &it, &st};
        TestTensor ci(I64, {b * c * n, 3}), gi(I64, {b * c * n, 3}), cn(I64, {1}), gn(I64, {1});
        expectCudaMatchesCpu("graft.vision.all_class_non_max_suppression", in, {&ci, &cn},
                             {&gi, &gn}, {std::string("onnx")});
        if (iou > 0) {
          EXPECT_GT(cn.intValues()[0], 0);
        }
        TestTensor ti(I64, {b, c * n, 2}), gti(I64, {b, c * n, 2}), ts(F32, {b, c * n}),
            gts(F32, {b, c * n}), tc(I64, {b}), gtc(I64, {b});
        expectCudaMatchesCpu("graft.vision.all_class_non_max_suppression", in, {&ti, &ts, &tc},
                             {&gti, &gts, &gtc}, {std::string("tensorflow")});
      }
  }
  TestTensor bx(F32, {1, 2, 4}), sc(F32, {1, 1, 2}), m(I64, {}, {1}), th(F32, {}, {0.5});
  TestTensor o0(I64, {2, 3}), o1(I64, {1});
  std::string err = runCuda("graft.vision.all_class_non_max_suppression", {&bx, &sc, &m, &th, &th},
                            {&o0, &o1}, {std::string("coco")});
  EXPECT_NE(err.find("output_format must be \"onnx\" or \"tensorflow\""), std::string::npos) << err;
}

} // namespace
} // namespace graft::cuda::test
