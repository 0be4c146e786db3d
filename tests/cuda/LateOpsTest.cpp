//===- tests/cuda/LateOpsTest.cpp - repeat ... einsum against the CPU kernels -===//
//
// Bounds: repeat, tile, flip, layout_transform and dynamic_strided_slice are
// copies, topk sorts and copies, quantize/dequantize compute in the CPU kernels' types
// with the same saturation: all exact. einsum runs the CPU kernel's loop in
// the same order without fused multiply-adds, so it is exact too; floats
// get 2 ulp of slack.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include "kernels/LayoutGather.h"

#include <cstdlib>
#include <cstring>

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

TEST(CudaLateOps, RepeatTileFlip) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(41);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor xs = randomTensor(t, {3, 4, 5}, rng, -50, 50);
    for (TestTensor *in : {&xs}) {
      TestTensor c(t, {3, 12, 5}), g(t, {3, 12, 5});
      expectCudaMatchesCpu("graft.repeat", {in}, {&c}, {&g}, {int64_t(3), int64_t(1)});
      TestTensor cf(t, {120}), gf(t, {120});
      expectCudaMatchesCpu("graft.repeat", {in}, {&cf}, {&gf}, {int64_t(2), std::monostate()});
      TestTensor ct(t, {2, 3, 8, 15}), gt(t, {2, 3, 8, 15});
      expectCudaMatchesCpu("graft.tile", {in}, {&ct}, {&gt}, {std::vector<int64_t>{2, 1, 2, 3}});
      TestTensor cl(t, {3, 4, 10}), gl(t, {3, 4, 10});
      expectCudaMatchesCpu("graft.tile", {in}, {&cl}, {&gl}, {std::vector<int64_t>{2}});
      for (int64_t axis : {0, 1, -1}) {
        TestTensor cp(t, {3, 4, 5}), gp(t, {3, 4, 5});
        expectCudaMatchesCpu("graft.flip", {in}, {&cp}, {&gp}, {axis});
      }
    }
  }
  TestTensor x(F32, {2, 3}), o(F32, {2, 5});
  EXPECT_EQ(runCuda("graft.repeat", {&x}, {&o}, {int64_t(2), int64_t(1)}),
            "graft.repeat: output has shape [2, 5], expected [2, 6]");
}

TEST(CudaLateOps, RepeatAndFlipOfAStridedInput) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(42);
  for (DLDataType t : {I8, F16, F32, F64}) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 3}, rng, -9, 9, {1, 0}); // stored transposed
    TestTensor c(t, {4, 6}), g(t, {4, 6});
    expectCudaMatchesCpu("graft.repeat", {&x}, {&c}, {&g}, {int64_t(2), int64_t(-1)});
    TestTensor cf(t, {36}), gf(t, {36});
    expectCudaMatchesCpu("graft.repeat", {&x}, {&cf}, {&gf}, {int64_t(3), std::monostate()});
    TestTensor cp(t, {4, 3}), gp(t, {4, 3});
    expectCudaMatchesCpu("graft.flip", {&x}, {&cp}, {&gp}, {int64_t(0)});
  }
}

/// `lambda n, c, h, w: (n, c // 4, h, w, c % 4)`, a transpose and a 1-D
/// split (kernels/IndexMapPlan.h's tokens: 1 parameter, 2 constant, 3 +,
/// 5 *, 6 //, 7 %, 0 end of an index).
const std::vector<int64_t> kNCHW4c = {4, 5, 1, 0, 0, 1, 1, 2, 4, 6, 0, 1,
                                      2, 0, 1, 3, 0, 1, 1, 2, 4, 7, 0};
const std::vector<int64_t> kSwapLast = {3, 3, 1, 0, 0, 1, 2, 0, 1, 1, 0};
const std::vector<int64_t> kSplit4 = {1, 2, 1, 0, 2, 4, 6, 0, 1, 0, 2, 4, 7, 0};

TEST(CudaLateOps, LayoutTransformPadsTransposesAndSplits) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(47);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    AttrValue pad = isFloat(t) ? AttrValue(0.5) : AttrValue(int64_t(3));
    // C = 6: the last two channels of the second block are padding.
    TestTensor x = randomTensor(t, {2, 6, 3, 5}, rng, -50, 50);
    TestTensor c(t, {2, 2, 3, 5, 4}), g(t, {2, 2, 3, 5, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&x}, {&c}, {&g}, {kNCHW4c, pad});
    TestTensor cu(t, {2, 2, 3, 5, 4}), gu(t, {2, 2, 3, 5, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&x}, {&cu}, {&gu}, {kNCHW4c, std::monostate()});
    // A transposed input into an output stored in another order.
    TestTensor s = randomTensor(t, {3, 4, 5}, rng, -50, 50, {2, 0, 1});
    TestTensor ct(t, {3, 5, 4}, {}, {1, 2, 0}), gt(t, {3, 5, 4}, {}, {1, 2, 0});
    expectCudaMatchesCpu("graft.layout_transform", {&s}, {&ct}, {&gt},
                         {kSwapLast, std::monostate()});
    TestTensor v = randomTensor(t, {1001}, rng, -50, 50);
    TestTensor cs(t, {251, 4}), gs(t, {251, 4});
    expectCudaMatchesCpu("graft.layout_transform", {&v}, {&cs}, {&gs}, {kSplit4, pad});
  }
  TestTensor x(F32, {4}), o(F32, {2, 2});
  EXPECT_EQ(runCuda("graft.layout_transform", {&x}, {&o},
                    {std::vector<int64_t>{1, 2, 1, 0, 1, 0, 6, 0, 1, 0, 0}, std::monostate()}),
            runKernel("graft.layout_transform", {&x}, {&o},
                      {std::vector<int64_t>{1, 2, 1, 0, 1, 0, 6, 0, 1, 0, 0}, std::monostate()}));
}

/// Maps the gather form takes (kernels/LayoutGather.h), each with an
/// input shape, the output shape, the input's storage order and whether
/// the gather must accept it.
struct GatherCase {
  const char *name;
  std::vector<int64_t> program, in, out, perm;
  bool accepted;
};

std::vector<GatherCase> gatherCases() {
  // Tokens: 1 parameter, 2 constant, 3 +, 4 -, 5 *, 6 //, 7 %, 0 end.
  const std::vector<int64_t> toNHWC = {4, 4, 1, 0, 0, 1, 2, 0, 1, 3, 0, 1, 1, 0};
  const std::vector<int64_t> toNCHW = {4, 4, 1, 0, 0, 1, 3, 0, 1, 1, 0, 1, 2, 0};
  const std::vector<int64_t> fuse4c = {5, 4, 1, 0, 0, 1, 1, 2, 4, 5, 1, 4, 3, 0, 1, 2, 0, 1, 3, 0};
  const std::vector<int64_t> split3c = {4, 5, 1, 0, 0, 1, 1, 2, 3, 6, 0, 1,
                                        2, 0, 1, 3, 0, 1, 1, 2, 3, 7, 0};
  const std::vector<int64_t> tile4x4 = {2, 4, 1, 0, 2, 4, 6, 0, 1, 1, 2, 4, 6,
                                        0, 1, 0, 2, 4, 7, 0, 1, 1, 2, 4, 7, 0};
  const std::vector<int64_t> shift2 = {1, 1, 1, 0, 2, 2, 3, 0};
  const std::vector<int64_t> reverse = {1, 1, 2, 10, 1, 0, 4, 0};
  const std::vector<int64_t> spread = {1, 2, 1, 0, 2, 3, 6, 0, 1, 0, 2, 3, 7, 2, 2, 5, 0};
  const std::vector<int64_t> leadingConst = {2, 3, 2, 1, 0, 1, 0, 0, 1, 1, 0};
  const std::vector<int64_t> dropsJ = {2, 1, 1, 0, 0};
  const std::vector<int64_t> rank7 = {3, 7, 1, 0, 2, 2, 6, 0, 1, 0, 2, 2, 7, 0, 1, 1, 2, 2, 6, 0, 1,
                                      1, 2, 2, 7, 0, 1, 2, 2, 3, 6, 0, 2, 0, 0, 1, 2, 2, 3, 7, 0};
  return {
      {"NCHW -> NCHW4c, padded", kNCHW4c, {2, 6, 3, 5}, {2, 2, 3, 5, 4}, {}, true},
      {"NCHW -> NCHW4c", kNCHW4c, {3, 8, 2, 7}, {3, 2, 2, 7, 4}, {}, true},
      {"NCHW -> NCHW4c of NHWC storage",
       kNCHW4c,
       {2, 6, 3, 5},
       {2, 2, 3, 5, 4},
       {0, 2, 3, 1},
       true},
      {"NCHW -> NHWC", toNHWC, {2, 5, 3, 7}, {2, 3, 7, 5}, {}, true},
      {"NCHW -> NHWC, 16 channels", toNHWC, {2, 16, 3, 5}, {2, 3, 5, 16}, {}, true},
      {"rank 7 with a constant index", rank7, {5, 4, 7}, {3, 2, 2, 2, 3, 1, 3}, {}, true},
      {"NHWC -> NCHW", toNCHW, {2, 3, 7, 8}, {2, 8, 3, 7}, {}, true},
      {"NCHW4c -> NCHW (a table)", fuse4c, {2, 3, 3, 5, 4}, {2, 12, 3, 5}, {}, true},
      {"NCHW4c -> NCHW, strided", fuse4c, {2, 3, 3, 5, 4}, {2, 12, 3, 5}, {4, 3, 2, 1, 0}, true},
      {"NCHW -> NCHW3c, odd block", split3c, {2, 7, 3, 5}, {2, 3, 3, 5, 3}, {}, true},
      {"2-D tiles of 4x4, padded", tile4x4, {10, 6}, {3, 2, 4, 4}, {}, true},
      {"1-D into rows of 4, padded", kSplit4, {1001}, {251, 4}, {}, true},
      {"1-D long, grid-stride", kSplit4, {70001}, {17501, 4}, {}, true},
      {"shift by 2 (pad before and after)", shift2, {9}, {12}, {}, true},
      {"reversed", reverse, {11}, {11}, {}, true},
      {"every other slot (a table)", spread, {11}, {4, 6}, {}, true},
      {"a constant leading index", leadingConst, {3, 4}, {2, 3, 4}, {}, true},
      {"swap of the last two", kSwapLast, {3, 4, 5}, {3, 5, 4}, {2, 0, 1}, true},
      {"not injective", dropsJ, {4, 2}, {4}, {}, false},
  };
}

/// Runs a gather plan on the host exactly as the kernel does (V = 1 and,
/// where it divides the last extent, V = 4) and checks it against the CPU
/// kernel's output: every element the plan reads has the input element's
/// bits, and the others (nOut - nIn of them) hold one pad value.
template <int V>
void expectGatherMatches(const kernels::indexmap::GatherPlan &g, TestTensor &in,
                         TestTensor &cpuOut) {
  namespace im = kernels::indexmap;
  const DLTensor &x = *in.dl(), &y = *cpuOut.dl();
  size_t size = x.dtype.bits / 8;
  const char *xs = static_cast<const char *>(x.data) + x.byte_offset;
  const char *ys = static_cast<const char *>(y.data) + y.byte_offset;
  int64_t nOut = cpuOut.numel(), pads = 0;
  const char *padAt = nullptr;
  ASSERT_EQ(nOut % V, 0);
  for (int64_t first = 0; first < nOut; first += V) {
    uint32_t off[V];
    bool hit[V];
    if (g.ndim == 4)
      im::gatherOffsets<4, V>(g, g.table, uint32_t(first), off, hit);
    else if (g.ndim == 6)
      im::gatherOffsets<6, V>(g, g.table, uint32_t(first), off, hit);
    else
      im::gatherOffsets<8, V>(g, g.table, uint32_t(first), off, hit);
    for (int e = 0; e < V; ++e) {
      const char *want = ys + (first + e) * size;
      if (hit[e]) {
        ASSERT_EQ(std::memcmp(want, xs + size_t(off[e]) * size, size), 0)
            << "output element " << first + e << " from input offset " << off[e];
        continue;
      }
      ++pads;
      if (!padAt)
        padAt = want;
      ASSERT_EQ(std::memcmp(want, padAt, size), 0) << "output element " << first + e;
    }
  }
  EXPECT_EQ(pads, nOut - in.numel());
}

TEST(LayoutGatherPlan, FastDivisionIsExactBelow2To31) {
  namespace im = kernels::indexmap;
  std::mt19937_64 rng(3);
  std::vector<uint32_t> divisors = {1,        2,
                                    3,        4,
                                    5,        7,
                                    56,       130,
                                    641,      3136,
                                    65535,    65536,
                                    65537,    (1u << 31) - 1,
                                    1u << 30, (1u << 30) + 1,
                                    1000003};
  for (int i = 0; i < 200; ++i)
    divisors.push_back(uint32_t(rng() % ((1u << 31) - 1)) + 1);
  for (int i = 0; i < 200; ++i)
    divisors.push_back(uint32_t(rng() % 5000) + 1);
  for (uint32_t d : divisors) {
    im::FastDiv f = im::FastDiv::of(d);
    std::vector<uint32_t> ns = {0, 1, d - 1, d, (1u << 31) - 1, (1u << 31) - 2};
    for (uint32_t k : {uint32_t(1), uint32_t(2), uint32_t(7), ((1u << 31) - 1) / d})
      for (int64_t delta : {-1, 0, 1}) {
        int64_t n = int64_t(k) * d + delta;
        if (n >= 0 && n < (int64_t(1) << 31))
          ns.push_back(uint32_t(n));
      }
    for (int i = 0; i < 300; ++i)
      ns.push_back(uint32_t(rng() % (1u << 31)));
    for (uint32_t n : ns)
      ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
  }
}

TEST(LayoutGatherPlan, HostRunMatchesTheCpuKernel) {
  namespace im = kernels::indexmap;
  std::mt19937_64 rng(48);
  for (const GatherCase &c : gatherCases()) {
    SCOPED_TRACE(c.name);
    im::IndexMapPlan map;
    ASSERT_EQ(im::decodePlan(c.program.data(), c.program.size(), map), "");
    for (DLDataType t : {I8, F16, F32, F64}) {
      SCOPED_TRACE(typeName(t));
      TestTensor x = randomTensor(t, c.in, rng, -50, 50, c.perm);
      std::vector<int64_t> strides(x.dl()->strides, x.dl()->strides + x.dl()->ndim);
      im::GatherPlan g;
      std::string why = im::buildGatherPlan(map, int(c.in.size()), c.in.data(), strides.data(),
                                            int(c.out.size()), c.out.data(), g);
      ASSERT_EQ(why.empty(), c.accepted) << why;
      if (!c.accepted)
        continue;
      TestTensor y(t, c.out);
      RUN_OK("graft.layout_transform", {&x}, {&y}, {c.program, int64_t(3)});
      expectGatherMatches<1>(g, x, y);
      if (c.out.back() % 4 == 0)
        expectGatherMatches<4>(g, x, y);
    }
  }
}

/// Every dtype through both forms (the gather by default,
/// GRAFT_CUDA_LAYOUT_TRANSFORM=scatter the interpreter), bit for bit
/// against the CPU kernel.
TEST(CudaLateOps, LayoutTransformGatherAndScatterForms) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(49);
  for (const char *form : {"gather", "scatter"}) {
    if (std::string(form) == "scatter")
      setenv("GRAFT_CUDA_LAYOUT_TRANSFORM", "scatter", 1);
    for (const GatherCase &c : gatherCases()) {
      if (!c.accepted)
        continue;
      for (DLDataType t : kAllTypes) {
        SCOPED_TRACE(std::string(form) + " " + c.name + " " + typeName(t));
        AttrValue pad = isFloat(t) ? AttrValue(-1.5) : AttrValue(int64_t(7));
        TestTensor x = randomTensor(t, c.in, rng, -50, 50, c.perm);
        TestTensor cy(t, c.out), gy(t, c.out);
        expectCudaMatchesCpu("graft.layout_transform", {&x}, {&cy}, {&gy}, {c.program, pad});
      }
    }
    unsetenv("GRAFT_CUDA_LAYOUT_TRANSFORM");
  }
}

TEST(CudaLateOps, DynamicStridedSliceShapeAndFill) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(43);
  TestTensor b = TestTensor::ints(I64, {3}, {3, 1, -1}),
             e = TestTensor::ints(I32, {3}, {-9, 100, 0}),
             s = TestTensor::ints(I64, {3}, {-1, 2, -2});
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 5, 6}, rng, -50, 50);
    TestTensor cs(I64, {3}), gs(I64, {3});
    expectCudaMatchesCpu("graft.host.dynamic_strided_slice_count", {&x, &b, &e, &s}, {&cs}, {&gs});
    EXPECT_EQ(gs.intValues(), (Ints{4, 2, 3}));
    TestTensor c(t, {4, 2, 3}), g(t, {4, 2, 3});
    expectCudaMatchesCpu("graft.host.dynamic_strided_slice", {&x, &b, &e, &s}, {&c}, {&g});
  }
  TestTensor x(F32, {4, 5, 6}), o(F32, {4, 2, 3});
  TestTensor zero = TestTensor::ints(I64, {3}, {1, 0, 1});
  EXPECT_EQ(runCuda("graft.host.dynamic_strided_slice", {&x, &b, &e, &zero}, {&o}),
            runKernel("graft.host.dynamic_strided_slice", {&x, &b, &e, &zero}, {&o}));
}

TEST(CudaLateOps, QuantizeAndDequantize) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(44);
  TestTensor s = randomTensor(F32, {5}, rng, 0.1, 3), s0(F32, {}, {0.37});
  TestTensor z = randomTensor(I8, {5}, rng, -20, 20), z0 = TestTensor::ints(U8, {}, {3});
  for (DLDataType t : kFloatTypes) {
    for (DLDataType o : {I8, U8, I16, I32, F16, BF16, F32}) {
      SCOPED_TRACE(typeName(t) + " to " + typeName(o));
      TestTensor x = randomTensor(t, {3, 5}, rng, -300, 300);
      TestTensor c(o, {3, 5}), g(o, {3, 5});
      expectCudaMatchesCpu("graft.quantize", {&x, &s, &z}, {&c}, {&g}, {int64_t(1)});
      TestTensor c0(o, {3, 5}), g0(o, {3, 5});
      expectCudaMatchesCpu("graft.quantize", {&x, &s0, &z0}, {&c0}, {&g0}, {int64_t(-1)});
    }
  }
  // NaN saturates to the maximum on both.
  TestTensor xn(F32, {3}, {NAN, 1e9, -1e9}), cn(I8, {3}), gn(I8, {3});
  expectCudaMatchesCpu("graft.quantize", {&xn, &s0, &z0}, {&cn}, {&gn}, {int64_t(0)});
  EXPECT_EQ(gn.intValues(), (Ints{127, 127, -128}));
  for (DLDataType t : {I8, U8, I16, I32, I64, F16, F32, F64}) {
    for (DLDataType o : {F32, F16, BF16}) {
      SCOPED_TRACE(typeName(t) + " to " + typeName(o));
      TestTensor x = randomTensor(t, {4, 5}, rng, -100, 100);
      TestTensor c(o, {4, 5}), g(o, {4, 5});
      expectCudaMatchesCpu("graft.dequantize", {&x, &s, &z}, {&c}, {&g}, {int64_t(1)});
      TestTensor big(F32, {}, {3000.5}), c0(o, {4, 5}), g0(o, {4, 5});
      expectCudaMatchesCpu("graft.dequantize", {&x, &big, &z0}, {&c0}, {&g0}, {int64_t(0)});
    }
  }
  TestTensor x(F32, {3, 5}), bad(F32, {4}), o(I8, {3, 5});
  EXPECT_EQ(runCuda("graft.quantize", {&x, &bad, &z}, {&o}, {int64_t(1)}),
            runKernel("graft.quantize", {&x, &bad, &z}, {&o}, {int64_t(1)}));
}

TEST(CudaLateOps, TopKEveryRetTypeAndDirection) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(45);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    // Few distinct values: many ties, which keep input order.
    std::vector<double> v = randomTensor(t, {6, 37}, rng, -3, 3).values();
    if (isFloat(t))
      v[5] = v[80] = NAN;
    TestTensor x(t, {6, 37}, v);
    for (bool largest : {true, false}) {
      TestTensor cv(t, {6, 5}), ci(I32, {6, 5}), gv(t, {6, 5}), gi(I32, {6, 5});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                           {int64_t(5), int64_t(-1), std::string("both"), largest});
      TestTensor ca(t, {6, 37}), ga(t, {6, 37});
      expectCudaMatchesCpu("graft.topk", {&x}, {&ca}, {&ga},
                           {int64_t(0), int64_t(1), std::string("values"), largest});
      TestTensor c0(I64, {4, 37}), g0(I64, {4, 37});
      expectCudaMatchesCpu("graft.topk", {&x}, {&c0}, {&g0},
                           {int64_t(4), int64_t(0), std::string("indices"), largest});
    }
  }
  TestTensor x(F32, {2, 3}), o(F32, {2, 1});
  EXPECT_EQ(
      runCuda("graft.topk", {&x}, {&o}, {int64_t(1), int64_t(1), std::string("both"), true}),
      runKernel("graft.topk", {&x}, {&o}, {int64_t(1), int64_t(1), std::string("both"), true}));
}

/// Rows longer than one block sorts go through cub's (segmented) radix
/// sort: 100000 elements of 41 distinct values (ties everywhere, the lower
/// index first), NaN and both zeros; then several long rows along a
/// non-last axis of a transposed input.
TEST(CudaLateOps, TopKOfLongRowsWithTies) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(48);
  // Few dtypes and calls: compute-sanitizer runs this suite too.
  for (DLDataType t : {F32, I32}) {
    SCOPED_TRACE(typeName(t));
    std::vector<double> v = randomTensor(t, {1, 100000}, rng, -20, 20).values();
    for (double &e : v)
      e = std::round(e);
    if (isFloat(t)) {
      v[7] = v[99999] = v[31337] = NAN;
      v[11] = -0.0;
      v[12] = 0.0;
    }
    TestTensor x(t, {1, 100000}, v);
    for (bool largest : {true, false}) {
      TestTensor cv(t, {1, 50}), ci(I64, {1, 50}), gv(t, {1, 50}), gi(I64, {1, 50});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                           {int64_t(50), int64_t(-1), std::string("both"), largest});
      TestTensor cj(I32, {1, 50}), gj(I32, {1, 50});
      expectCudaMatchesCpu("graft.topk", {&x}, {&cj}, {&gj},
                           {int64_t(50), int64_t(1), std::string("indices"), largest});
    }
  }
  TestTensor x = randomTensor(F32, {5000, 3}, rng, -9, 9, {1, 0}); // stored transposed
  for (bool largest : {true, false}) {
    TestTensor cv(F32, {17, 3}), ci(I32, {17, 3}), gv(F32, {17, 3}), gi(I32, {17, 3});
    expectCudaMatchesCpu("graft.topk", {&x}, {&cv, &ci}, {&gv, &gi},
                         {int64_t(17), int64_t(0), std::string("both"), largest});
  }
}

TEST(CudaLateOps, EinsumContractions) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(46);
  for (DLDataType t : {I8, I16, I32, I64, U8, F16, BF16, F32, F64}) {
    SCOPED_TRACE(typeName(t));
    TestTensor a = randomTensor(t, {5, 7}, rng, -3, 3), b = randomTensor(t, {7, 6}, rng, -3, 3),
               v = randomTensor(t, {6}, rng, -3, 3), sq = randomTensor(t, {5, 5}, rng, -3, 3);
    TestTensor at = randomTensor(t, {7, 5}, rng, -3, 3, {1, 0}); // logical [7, 5], transposed
    Bound bound{2, 0};
    TestTensor c(t, {5, 6}), g(t, {5, 6});
    expectCudaMatchesCpu("graft.einsum", {&a, &b}, {&c}, {&g}, {std::string("ij,jk->ik")}, bound);
    TestTensor c3(t, {5}), g3(t, {5});
    expectCudaMatchesCpu("graft.einsum", {&a, &b, &v}, {&c3}, {&g3}, {std::string("ij,jk,k")},
                         bound);
    TestTensor ct(t, {}), gt(t, {});
    expectCudaMatchesCpu("graft.einsum", {&sq}, {&ct}, {&gt}, {std::string("ii")}, bound);
    TestTensor cd(t, {5}), gd(t, {5});
    expectCudaMatchesCpu("graft.einsum", {&sq}, {&cd}, {&gd}, {std::string("ii->i")}, bound);
    TestTensor co(t, {5, 7}), go(t, {5, 7});
    expectCudaMatchesCpu("graft.einsum", {&at}, {&co}, {&go}, {std::string("ji->ij")}, bound);
    TestTensor cb(t, {5, 5, 7}), gb(t, {5, 5, 7});
    expectCudaMatchesCpu("graft.einsum", {&sq, &a}, {&cb}, {&gb}, {std::string("ij,jk->jik")},
                         bound);
  }
  TestTensor a(F32, {2, 3}), b(F32, {4, 3}), o(F32, {2, 3});
  EXPECT_EQ(runCuda("graft.einsum", {&a, &b}, {&o}, {std::string("ij,jk->ik")}),
            runKernel("graft.einsum", {&a, &b}, {&o}, {std::string("ij,jk->ik")}));
}

} // namespace
} // namespace graft::cuda::test
