//===- tests/kernels/ConvPoolTest.cpp - conv, pools, batch_norm -----------===//
//
// Hand-computed values for the kernels of kernels/cpu/Conv.cpp; numpy
// oracles over every dtype run end to end (tests/e2e/op_cases.py).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

std::vector<double> iota(int64_t n, double from = 1) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(from + double(i));
  return v;
}

std::vector<AttrValue> convAttrs(Ints strides, Ints padding, Ints dilation, int64_t groups,
                                 std::string data, std::string kernel, std::string out = "") {
  std::vector<AttrValue> a{strides, padding, dilation, groups, data, kernel};
  a.push_back(out.empty() ? AttrValue(data) : AttrValue(out));
  return a;
}

TEST(Conv, Conv1dStridePaddingDilation) {
  // x = 1..5, w = [1, 10]; dilation 2, padding 1 on both sides, stride 2:
  // padded x = 0 1 2 3 4 5 0; outputs at 0, 2, 4: x[-1]+10x[1], x[1]+10x[3], x[3]+10x[5].
  TestTensor x(F32, {1, 1, 5}, iota(5)), w(F32, {1, 1, 2}, {1, 10}), o(F32, {1, 1, 3});
  RUN_OK("graft.nn.conv1d", {&x, &w}, {&o}, convAttrs({2}, {1, 1}, {2}, 1, "NCW", "OIW"));
  expectNear(o.values(), {20, 42, 4});
}

TEST(Conv, Conv2dNCHWSumsChannels) {
  // Two input channels of ones and twos, a 2x2 kernel of ones per channel:
  // every output is 4 * 1 + 4 * 2 = 12; padding 1 makes the corners 3.
  std::vector<double> xs(9, 1.0);
  xs.resize(18, 2.0);
  TestTensor x(F64, {1, 2, 3, 3}, xs), w(F64, {1, 2, 2, 2}, std::vector<double>(8, 1.0));
  TestTensor o(F64, {1, 1, 2, 2}), p(F64, {1, 1, 4, 4});
  RUN_OK("graft.nn.conv2d", {&x, &w}, {&o},
         convAttrs({1, 1}, {0, 0, 0, 0}, {1, 1}, 1, "NCHW", "OIHW"));
  expectNear(o.values(), {12, 12, 12, 12});
  RUN_OK("graft.nn.conv2d", {&x, &w}, {&p},
         convAttrs({1, 1}, {1, 1, 1, 1}, {1, 1}, 1, "NCHW", "OIHW"));
  expectNear(p.values(), {3, 6, 6, 3, 6, 12, 12, 6, 6, 12, 12, 6, 3, 6, 6, 3});
}

TEST(Conv, Conv2dNHWCAndHWIOMatchNCHW) {
  // The same convolution in NCHW/OIHW and NHWC/HWIO gives the same values.
  std::vector<double> xv = iota(2 * 3 * 4 * 5), wv = iota(4 * 3 * 2 * 3, -10);
  TestTensor x(F32, {2, 3, 4, 5}, xv), w(F32, {4, 3, 2, 3}, wv), o(F32, {2, 4, 2, 2});
  auto attrs = convAttrs({2, 2}, {1, 0, 0, 1}, {1, 1}, 1, "NCHW", "OIHW");
  RUN_OK("graft.nn.conv2d", {&x, &w}, {&o}, attrs);
  // The same values laid out as NHWC and HWIO.
  std::vector<double> v(xv.size()), u(wv.size());
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int h = 0; h < 4; ++h)
        for (int ww = 0; ww < 5; ++ww)
          v[((n * 4 + h) * 5 + ww) * 3 + c] = xv[((n * 3 + c) * 4 + h) * 5 + ww];
  for (int oc = 0; oc < 4; ++oc)
    for (int ic = 0; ic < 3; ++ic)
      for (int h = 0; h < 2; ++h)
        for (int ww = 0; ww < 3; ++ww)
          u[((h * 3 + ww) * 3 + ic) * 4 + oc] = wv[((oc * 3 + ic) * 2 + h) * 3 + ww];
  TestTensor xh(F32, {2, 4, 5, 3}, v), wh(F32, {2, 3, 3, 4}, u), oh(F32, {2, 2, 2, 4});
  RUN_OK("graft.nn.conv2d", {&xh, &wh}, {&oh},
         convAttrs({2, 2}, {1, 0, 0, 1}, {1, 1}, 1, "NHWC", "HWIO"));
  std::vector<double> want = o.values(), got = oh.values(), back(want.size());
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 4; ++c)
      for (int h = 0; h < 2; ++h)
        for (int ww = 0; ww < 2; ++ww)
          back[((n * 4 + c) * 2 + h) * 2 + ww] = got[((n * 2 + h) * 2 + ww) * 4 + c];
  expectNear(back, want);
}

TEST(Conv, Conv2dGroupsKeepChannelsApart) {
  // Depthwise: groups = channels = 2, each output channel sees only its own.
  TestTensor x(F32, {1, 2, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40});
  TestTensor w(F32, {2, 1, 1, 1}, {2, -1}), o(F32, {1, 2, 2, 2});
  RUN_OK("graft.nn.conv2d", {&x, &w}, {&o},
         convAttrs({1, 1}, {0, 0, 0, 0}, {1, 1}, 2, "NCHW", "OIHW"));
  expectNear(o.values(), {2, 4, 6, 8, -10, -20, -30, -40});
}

TEST(Conv, Conv3dOutLayoutDiffers) {
  // A 2x2x2 cube of 1..8 and a 2x2x2 kernel of ones: one output, 36,
  // written NDHWC (the output layout may differ from the data's).
  TestTensor x(F16, {1, 1, 2, 2, 2}, iota(8)), w(F16, {1, 1, 2, 2, 2}, std::vector<double>(8, 1));
  TestTensor o(F16, {1, 1, 1, 1, 1});
  RUN_OK("graft.nn.conv3d", {&x, &w}, {&o},
         convAttrs({1, 1, 1}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}, 1, "NCDHW", "OIDHW", "NDHWC"));
  expectNear(o.values(), {36});
}

TEST(Conv, Conv1dTransposeScattersEveryInput) {
  // x = [1, 2], w = [1, 10, 100], stride 2: output length (2-1)*2+3 = 5;
  // x0 lands at 0..2, x1 at 2..4: [1, 10, 100+2, 20, 200].
  TestTensor x(F32, {1, 1, 2}, {1, 2}), w(F32, {1, 1, 3}, {1, 10, 100}), o(F32, {1, 1, 5});
  std::vector<AttrValue> a{Ints{2},
                           Ints{0, 0},
                           Ints{0},
                           Ints{1},
                           int64_t(1),
                           std::string("NCW"),
                           std::string("IOW"),
                           std::string("NCW")};
  RUN_OK("graft.nn.conv1d_transpose", {&x, &w}, {&o}, a);
  expectNear(o.values(), {1, 10, 102, 20, 200});
  // padding 1 trims one on each side; output_padding 1 adds one at the end.
  TestTensor p(F32, {1, 1, 4});
  a[1] = Ints{1, 1};
  a[2] = Ints{1};
  RUN_OK("graft.nn.conv1d_transpose", {&x, &w}, {&p}, a);
  expectNear(p.values(), {10, 102, 20, 200});
}

TEST(Conv, Conv2dTransposeGroupsAndDilation) {
  // Two groups of one channel: x (1, 2, 1, 1) = [3, 5], weight (2, 1, 2, 2);
  // dilation 2 spreads the taps: output 3x3 with the taps at the corners.
  TestTensor x(F32, {1, 2, 1, 1}, {3, 5}), w(F32, {2, 1, 2, 2}, {1, 2, 3, 4, 1, 1, 1, 1});
  TestTensor o(F32, {1, 2, 3, 3});
  std::vector<AttrValue> a{Ints{1, 1},          Ints{0, 0, 0, 0},   Ints{0, 0},
                           Ints{2, 2},          int64_t(2),         std::string("NCHW"),
                           std::string("IOHW"), std::string("NCHW")};
  RUN_OK("graft.nn.conv2d_transpose", {&x, &w}, {&o}, a);
  expectNear(o.values(), {3, 0, 6, 0, 0, 0, 9, 0, 12, 5, 0, 5, 0, 0, 0, 5, 0, 5});
}

TEST(Conv, RefusesAMismatchedOutput) {
  TestTensor x(F32, {1, 1, 5}), w(F32, {1, 1, 2}), o(F32, {1, 1, 3});
  EXPECT_EQ(
      runKernel("graft.nn.conv1d", {&x, &w}, {&o}, convAttrs({1}, {0, 0}, {1}, 1, "NCW", "OIW")),
      "graft.nn.conv1d: the output must have the canonical shape (1, 1) + (4,), got (1, 1) "
      "+ (3,)");
  EXPECT_EQ(
      runKernel("graft.nn.conv1d", {&x, &w}, {&o}, convAttrs({1}, {0, 0}, {1}, 1, "NCW4c", "OIW")),
      "graft.nn.conv1d: data: layout \"NCW4c\" is not a permutation of NCW");
  TestTensor xi(I32, {1, 1, 5}), oi(I32, {1, 1, 4});
  EXPECT_EQ(
      runKernel("graft.nn.conv1d", {&xi, &w}, {&oi}, convAttrs({1}, {0, 0}, {1}, 1, "NCW", "OIW")),
      "graft.nn.conv1d: takes floating-point tensors, got input 0 of dtype int32");
}

std::vector<AttrValue> poolAttrs(Ints size, Ints strides, Ints padding, Ints dilation, bool ceil,
                                 bool includePad, std::string layout = "NCHW") {
  return {size, strides, padding, dilation, ceil, includePad, layout, layout};
}

TEST(Pool, MaxPool2dPaddingAndCeilMode) {
  // 4x4 of 1..16, 3x3 windows, stride 2, padding 1: outputs at rows/cols
  // -1..1 and 1..3 -> maxima 6, 8, 14, 16.
  TestTensor x(F32, {1, 1, 4, 4}, iota(16)), o(F32, {1, 1, 2, 2});
  RUN_OK("graft.nn.max_pool2d", {&x}, {&o},
         poolAttrs({3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, false, false));
  expectNear(o.values(), {6, 8, 14, 16});
  // 5 wide, window 2, stride 2: floor gives 2 outputs, ceil 3 (the last
  // window holds only the fifth column).
  TestTensor y(F32, {1, 1, 1, 5}, {1, 5, 2, 4, 3}), f(F32, {1, 1, 1, 2}), c(F32, {1, 1, 1, 3});
  RUN_OK("graft.nn.max_pool2d", {&y}, {&f},
         poolAttrs({1, 2}, {1, 2}, {0, 0, 0, 0}, {1, 1}, false, false));
  expectNear(f.values(), {5, 4});
  RUN_OK("graft.nn.max_pool2d", {&y}, {&c},
         poolAttrs({1, 2}, {1, 2}, {0, 0, 0, 0}, {1, 1}, true, false));
  expectNear(c.values(), {5, 4, 3});
}

TEST(Pool, CeilModeDropsAWindowStartingInThePadding) {
  // in 4, window 1, stride 2, padding (0, 1), ceil: the raw count is
  // (4 + 1 - 1 + 1) // 2 + 1 = 3, but the third window would start at
  // 2 * 2 = 4 >= in + pad_before, inside the bottom padding: dropped.
  TestTensor x(F32, {1, 1, 4}, {1, 2, 3, 4}), o(F32, {1, 1, 2}), bad(F32, {1, 1, 3});
  std::vector<AttrValue> a{Ints{1}, Ints{2}, Ints{0, 1},         Ints{1},
                           true,    false,   std::string("NCW"), std::string("NCW")};
  RUN_OK("graft.nn.max_pool1d", {&x}, {&o}, a);
  expectNear(o.values(), {1, 3});
  EXPECT_EQ(runKernel("graft.nn.max_pool1d", {&x}, {&bad}, a),
            "graft.nn.max_pool1d: the output must have the canonical shape (1, 1) + (2,), got "
            "(1, 1) + (3,)");
}

TEST(Pool, AvgPoolCountIncludePad) {
  // 1-d: x = 1..4, window 3, stride 1, padding 1: sums 3, 6, 9, 7. With
  // padding counted every divisor is 3; without, the edges divide by 2.
  TestTensor x(F64, {1, 1, 4}, iota(4)), inc(F64, {1, 1, 4}), exc(F64, {1, 1, 4});
  std::vector<AttrValue> a{Ints{3}, Ints{1}, Ints{1, 1},         Ints{1},
                           false,   true,    std::string("NCW"), std::string("NCW")};
  RUN_OK("graft.nn.avg_pool1d", {&x}, {&inc}, a);
  expectNear(inc.values(), {1, 2, 3, 7.0 / 3});
  a[5] = false;
  RUN_OK("graft.nn.avg_pool1d", {&x}, {&exc}, a);
  expectNear(exc.values(), {1.5, 2, 3, 3.5});
}

TEST(Pool, AvgPool2dNHWCAndDilation) {
  // NHWC, two channels; a 2x2 window with dilation 2 over 3x3 takes the
  // four corners.
  std::vector<double> v;
  for (int i = 1; i <= 9; ++i) {
    v.push_back(i);
    v.push_back(10 * i);
  }
  TestTensor x(F32, {1, 3, 3, 2}, v), o(F32, {1, 1, 1, 2});
  RUN_OK("graft.nn.avg_pool2d", {&x}, {&o},
         poolAttrs({2, 2}, {1, 1}, {0, 0, 0, 0}, {2, 2}, false, false, "NHWC"));
  expectNear(o.values(), {5, 50});
}

TEST(Pool, Pool3dMaxAndAvg) {
  TestTensor x(BF16, {1, 1, 2, 2, 2}, iota(8)), mx(BF16, {1, 1, 1, 1, 1}),
      av(BF16, {1, 1, 1, 1, 1});
  std::vector<AttrValue> a{
      Ints{2, 2, 2}, Ints{2, 2, 2}, Ints{0, 0, 0, 0, 0, 0}, Ints{1, 1, 1},
      false,         false,         std::string("NCDHW"),   std::string("NCDHW")};
  RUN_OK("graft.nn.max_pool3d", {&x}, {&mx}, a);
  RUN_OK("graft.nn.avg_pool3d", {&x}, {&av}, a);
  expectNear(mx.values(), {8});
  expectNear(av.values(), {4.5});
}

TEST(Pool, MaxPoolPropagatesNaN) {
  TestTensor x(F32, {1, 1, 3}, {1, NAN, 2}), o(F32, {1, 1, 1});
  std::vector<AttrValue> a{Ints{3}, Ints{1}, Ints{0, 0},         Ints{1},
                           false,   false,   std::string("NCW"), std::string("NCW")};
  RUN_OK("graft.nn.max_pool1d", {&x}, {&o}, a);
  EXPECT_TRUE(std::isnan(o.values()[0]));
}

TEST(Pool, AdaptiveAvgPoolWindowsOverlap) {
  // in 5 -> out 3: windows [0, 2), [1, 4), [3, 5).
  TestTensor x(F32, {1, 1, 5}, {1, 2, 3, 4, 5}), o(F32, {1, 1, 3});
  RUN_OK("graft.nn.adaptive_avg_pool1d", {&x}, {&o}, {std::string("NCW"), std::string("NCW")});
  expectNear(o.values(), {1.5, 3, 4.5});
  // 2-d, NHWC, to 1x1: the global mean per channel.
  TestTensor y(F64, {1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40}), g(F64, {1, 1, 1, 2});
  RUN_OK("graft.nn.adaptive_avg_pool2d", {&y}, {&g}, {std::string("NHWC"), std::string("NHWC")});
  expectNear(g.values(), {2.5, 25});
  TestTensor z(F32, {1, 1, 2, 2, 2}, iota(8)), h(F32, {1, 1, 1, 1, 2});
  RUN_OK("graft.nn.adaptive_avg_pool3d", {&z}, {&h}, {std::string("NCDHW"), std::string("NCDHW")});
  expectNear(h.values(), {4, 5});
}

std::vector<AttrValue> bnAttrs(int64_t axis, bool training, double momentum = 0.1) {
  return {axis, 1e-5, true, true, momentum, training};
}

TEST(BatchNorm, InferenceUsesTheMovingStatistics) {
  // Channel axis 1 of (2, 2): channel 0 mean 1 var 4, channel 1 mean 0 var 1.
  TestTensor x(F64, {2, 2}, {3, 1, -1, 2}), g(F64, {2}, {2, 1}), b(F64, {2}, {0, 10});
  TestTensor m(F64, {2}, {1, 0}), v(F64, {2}, {4, 1});
  TestTensor o(F64, {2, 2}), om(F64, {2}), ov(F64, {2});
  RUN_OK("graft.nn.batch_norm", {&x, &g, &b, &m, &v}, {&o, &om, &ov}, bnAttrs(1, false));
  double s4 = std::sqrt(4 + 1e-5), s1 = std::sqrt(1 + 1e-5);
  expectNear(o.values(), {2 * 2 / s4, 1 / s1 + 10, 2 * -2 / s4, 2 / s1 + 10});
  expectNear(om.values(), {1, 0});
  expectNear(ov.values(), {4, 1});
}

TEST(BatchNorm, TrainingUsesBatchStatisticsAndUpdatesTheMovingOnes) {
  // axis 0 of (2, 3): row means 2 and 5, biased variances 2/3 each.
  TestTensor x(F32, {2, 3}, {1, 2, 3, 4, 5, 6}), g(F32, {2}, {1, 1}), b(F32, {2}, {0, 0});
  TestTensor m(F32, {2}, {0, 10}), v(F32, {2}, {1, 1});
  TestTensor o(F32, {2, 3}), om(F32, {2}), ov(F32, {2});
  RUN_OK("graft.nn.batch_norm", {&x, &g, &b, &m, &v}, {&o, &om, &ov}, bnAttrs(0, true, 0.5));
  double s = std::sqrt(2.0 / 3 + 1e-5);
  expectNear(o.values(), {-1 / s, 0, 1 / s, -1 / s, 0, 1 / s}, 1e-5);
  expectNear(om.values(), {1, 7.5}, 1e-6);
  expectNear(ov.values(), {0.5 + 1.0 / 3, 0.5 + 1.0 / 3}, 1e-6);
}

TEST(BatchNorm, CenterAndScaleOffIgnoreGammaAndBeta) {
  TestTensor x(F32, {1, 2}, {3, 4}), g(F32, {2}, {5, 5}), b(F32, {2}, {7, 7});
  TestTensor m(F32, {2}, {1, 2}), v(F32, {2}, {1, 1});
  TestTensor o(F32, {1, 2}), om(F32, {2}), ov(F32, {2});
  RUN_OK("graft.nn.batch_norm", {&x, &g, &b, &m, &v}, {&o, &om, &ov},
         {int64_t(-1), 0.0, false, false, 0.1, false});
  expectNear(o.values(), {2, 2});
  TestTensor bad(F32, {3});
  EXPECT_EQ(
      runKernel("graft.nn.batch_norm", {&x, &bad, &b, &m, &v}, {&o, &om, &ov}, bnAttrs(1, false)),
      "graft.nn.batch_norm: gamma must have the shape [2] of the data's axis 1, got [3]");
}

} // namespace
