//===- tests/cuda/OpsBatchCTest.cpp - losses, norms, gradients vs the CPU ---===//
//
// nll_loss, nll_loss_backward, cross_entropy_with_logits, dropout,
// group_norm, instance_norm, take_backward and the pool gradients on random
// inputs, CUDA against the CPU kernels. Bounds: dropout, take_backward on
// integers and nll_loss_backward's placement are exact; the CPU sums in
// double and the GPU in float (double for float64) in another order, so a
// float result may differ by 8 ulp of its dtype plus 8 ulp of the largest
// term's magnitude (1 here: the inputs lie in [-4, 4)), the normalizations
// (a division by a standard deviation) by 32 ulp plus 32 ulp of 1.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

void expectSame(const char *symbol, std::vector<TestTensor *> in, std::vector<TestTensor *> cpu,
                std::vector<TestTensor *> gpu, const Attrs &attrs, Bound b) {
  std::string cpuErr = runKernel(symbol, in, cpu, attrs);
  std::string gpuErr = runCuda(symbol, in, gpu, attrs);
  ASSERT_EQ(cpuErr, "") << symbol;
  ASSERT_EQ(gpuErr, "") << symbol;
  for (size_t i = 0; i < cpu.size(); ++i)
    EXPECT_EQ(compare(*cpu[i], *gpu[i], b), "") << symbol << " output " << i;
}

/// The bound of a float sum of terms within [-16, 16].
Bound sumBound(DLDataType t) { return {8, 8 * 16 * ulpOf(1.0, t)}; }
Bound normBound(DLDataType t) { return {32, 32 * ulpOf(1.0, t)}; }

TEST(CudaOpsBatchC, NLLLossEveryReductionWithAndWithoutWeights) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(71);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor p = randomTensor(t, {4, 5, 3}, rng), w = randomTensor(t, {5}, rng, 0.5, 2);
    TestTensor tg = randomTensor(I64, {4, 3}, rng, 0, 4);
    TestTensor t32 = randomTensor(I32, {4, 3}, rng, 0, 4);
    for (const char *reduction : {"none", "sum", "mean"}) {
      SCOPED_TRACE(reduction);
      bool none = std::string(reduction) == "none";
      std::vector<int64_t> shape = none ? std::vector<int64_t>{4, 3} : std::vector<int64_t>{};
      for (int64_t ignore : {int64_t(-100), int64_t(2)}) {
        TestTensor c(t, shape), g(t, shape), cw(t, shape), gw(t, shape);
        Attrs attrs = {std::string(reduction), ignore};
        expectSame("graft.nn.nll_loss", {&p, &tg}, {&c}, {&g}, attrs, sumBound(t));
        expectSame("graft.nn.nll_loss", {&p, &t32, &w}, {&cw}, {&gw}, attrs, sumBound(t));
        TestTensor og = randomTensor(t, shape, rng);
        TestTensor cb(t, {4, 5, 3}), gb(t, {4, 5, 3});
        expectSame("graft.grad.nll_loss_backward", {&og, &p, &tg, &w}, {&cb}, {&gb}, attrs,
                   sumBound(t));
      }
    }
    // Predictions of one class vector and a scalar target.
    TestTensor p1 = randomTensor(t, {6}, rng), t0(I64, {}, {3});
    TestTensor c(t, {}), g(t, {});
    expectSame("graft.nn.nll_loss", {&p1, &t0}, {&c}, {&g}, {std::string("none"), int64_t(-100)},
               {});
  }
}

TEST(CudaOpsBatchC, CrossEntropyAndDropout) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(72);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    for (std::vector<int64_t> shape : {std::vector<int64_t>{7}, std::vector<int64_t>{3, 50}}) {
      TestTensor x = randomTensor(t, shape, rng), y = randomTensor(t, shape, rng);
      TestTensor c(t, {}), g(t, {});
      expectSame("graft.nn.cross_entropy_with_logits", {&x, &y}, {&c}, {&g}, {},
                 {8, 8 * 16 * 150 * ulpOf(1.0, t)});
    }
  }
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {3, 333}, rng, -50, 50);
    TestTensor c(t, {3, 333}), cm(t, {3, 333}), g(t, {3, 333}), gm(t, {3, 333});
    expectSame("graft.nn.dropout", {&x}, {&c, &cm}, {&g, &gm}, {0.5}, {});
  }
}

TEST(CudaOpsBatchC, GroupAndInstanceNorm) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(73);
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 6, 5, 7}, rng), gm = randomTensor(t, {6}, rng),
               bt = randomTensor(t, {6}, rng);
    for (int64_t groups : {1, 2, 3, 6}) {
      TestTensor c(t, {2, 6, 5, 7}), g(t, {2, 6, 5, 7});
      expectSame("graft.nn.group_norm", {&x, &gm, &bt}, {&c}, {&g},
                 {groups, int64_t(1), std::vector<int64_t>{2, 3}, 1e-5, true, true}, normBound(t));
    }
    TestTensor c(t, {2, 6, 5, 7}), g(t, {2, 6, 5, 7});
    expectSame("graft.nn.instance_norm", {&x, &gm, &bt}, {&c}, {&g},
               {int64_t(1), std::vector<int64_t>{-1}, 1e-3, false, true}, normBound(t));
    // Channels last: channel_axis -1, normalized over dim 1.
    TestTensor xl = randomTensor(t, {2, 5, 6}, rng), cl(t, {2, 5, 6}), gl(t, {2, 5, 6});
    expectSame("graft.nn.group_norm", {&xl, &gm, &bt}, {&cl}, {&gl},
               {int64_t(3), int64_t(-1), std::vector<int64_t>{1}, 1e-5, true, false}, normBound(t));
  }
}

TEST(CudaOpsBatchC, TakeBackwardAlongAnAxisAndFlat) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(74);
  TestTensor idx(I64, {6}, {0, 3, -1, 3, 1, 3}), flat(I32, {2, 3}, {0, 11, 5, 5, 23, 7});
  for (DLDataType t : kAllTypes) {
    if (t.code == kernels::kGraftDLBool)
      continue;
    SCOPED_TRACE(typeName(t));
    Bound b = isFloat(t) ? sumBound(t) : Bound{};
    TestTensor x = randomTensor(t, {2, 4, 3}, rng), g = randomTensor(t, {2, 6, 3}, rng, -9, 9);
    TestTensor c(t, {2, 4, 3}), gg(t, {2, 4, 3});
    expectSame("graft.grad.take_backward", {&g, &x, &idx}, {&c}, {&gg}, {int64_t(1)}, b);
    TestTensor g2 = randomTensor(t, {2, 3}, rng, -9, 9);
    TestTensor c2(t, {2, 4, 3}), gg2(t, {2, 4, 3});
    expectSame("graft.grad.take_backward", {&g2, &x, &flat}, {&c2}, {&gg2}, {std::monostate()}, b);
  }
}

TEST(CudaOpsBatchC, PoolGradients) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(75);
  struct Case {
    std::vector<int64_t> k, s, pad;
    bool ceil, includePad;
    int64_t out;
  };
  // 9x9 input: k3 s2 p1 -> 5; k2 s2 -> 4; k3 s2 p1 ceil -> 5; k3 s3 p0 ceil -> 3.
  const Case cases[] = {{{3, 3}, {2, 2}, {1, 1, 1, 1}, false, false, 5},
                        {{2, 2}, {2, 2}, {0, 0, 0, 0}, false, false, 4},
                        {{3, 3}, {2, 2}, {1, 1, 1, 1}, true, true, 5},
                        {{3, 3}, {3, 3}, {0, 0, 0, 0}, true, false, 3}};
  for (DLDataType t : kFloatTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {2, 3, 9, 9}, rng);
    for (const Case &cs : cases) {
      TestTensor dy = randomTensor(t, {2, 3, cs.out, cs.out}, rng);
      Attrs attrs = {cs.k,
                     cs.s,
                     cs.pad,
                     std::vector<int64_t>{1, 1},
                     cs.ceil,
                     cs.includePad,
                     std::string("NCHW"),
                     std::string("NCHW")};
      for (const char *symbol :
           {"graft.grad.max_pool2d_backward", "graft.grad.avg_pool2d_backward"}) {
        TestTensor c(t, {2, 3, 9, 9}), g(t, {2, 3, 9, 9});
        expectSame(symbol, {&dy, &x}, {&c}, {&g}, attrs, sumBound(t));
      }
    }
  }
}

} // namespace
} // namespace graft::cuda::test
