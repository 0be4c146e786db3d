//===- tests/cuda/KernelsTest.cpp - astype, creation, reductions, nn, matmul -===//
//
// Bounds (float results; integers and bools are exact):
//   astype, full, ones, zeros, arange, max, min, permute_dims: exact.
//   sum, mean, prod: |gpu - cpu| <= 2 ulp + 4 n eps sum|x| (another
//     summation order; eps of the accumulator: float for half types).
//   softmax, log_softmax, layer_norm, rms_norm: 32 ulp + 1e-6 (float32),
//     2 ulp + 1e-6 (half types), 32 ulp + 1e-14 (float64): the CPU computes
//     in double, the GPU in float (double for float64).
//   matmul: 1 ulp + 2 k eps sum|a||b| per element (cuBLAS's order).
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include <cstdlib>

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

TEST(CudaKernels, AstypeEveryPair) {
  GRAFT_REQUIRE_GPU();
  Vals specials = {0.0,   -0.0,   1.5,      -2.5,      300.0, -129.0, 65504.0, 1e10,
                   -1e20, 3.4e38, INFINITY, -INFINITY, NAN,   0.1,    255.5,   7.0};
  std::mt19937_64 rng(3);
  for (DLDataType from : kAllTypes)
    for (DLDataType to : kAllTypes) {
      SCOPED_TRACE(typeName(from) + " -> " + typeName(to));
      TestTensor x = isFloat(from) ? TestTensor(from, {16}, specials)
                                   : randomTensor(from, {16}, rng, -200, 200);
      TestTensor c(to, {16}), g(to, {16});
      RUN_OK("graft.astype", {&x}, {&c});
      ASSERT_EQ(runCuda("graft.astype", {&x}, {&g}), "");
      EXPECT_EQ(compare(c, g), "");
    }
}

TEST(CudaKernels, CreationOps) {
  GRAFT_REQUIRE_GPU();
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    for (const char *sym : {"graft.zeros", "graft.ones"}) {
      TestTensor c(t, {3, 5}), g(t, {3, 5});
      RUN_OK(sym, {}, {&c});
      ASSERT_EQ(runCuda(sym, {}, {&g}), "");
      EXPECT_EQ(compare(c, g), "");
    }
    TestTensor fill(F64, {}, {-3.75}), like(t, {2, 3});
    TestTensor c(t, {4, 6}), g(t, {4, 6});
    RUN_OK("graft.full", {&fill}, {&c});
    ASSERT_EQ(runCuda("graft.full", {&fill}, {&g}), "");
    EXPECT_EQ(compare(c, g), "");
    TestTensor cl(t, {2, 3}), gl(t, {2, 3});
    RUN_OK("graft.full_like", {&like, &fill}, {&cl});
    ASSERT_EQ(runCuda("graft.full_like", {&like, &fill}, {&gl}), "");
    EXPECT_EQ(compare(cl, gl), "");
    if (t.code == kernels::kGraftDLBool)
      continue;
    for (Attrs attrs : {Attrs{int64_t(-3), int64_t(2)}, Attrs{0.5, 0.25}, Attrs{}}) {
      TestTensor ca(t, {37}), ga(t, {37});
      RUN_OK("graft.arange", {}, {&ca}, attrs);
      ASSERT_EQ(runCuda("graft.arange", {}, {&ga}, attrs), "");
      EXPECT_EQ(compare(ca, ga), "");
    }
  }
}

Bound sumBound(TestTensor &x, DLDataType t, int64_t n) {
  double mag = 0;
  for (double v : x.values())
    mag += std::fabs(v);
  double eps = t.bits == 64 ? DBL_EPSILON : FLT_EPSILON;
  return {2, 4 * double(n) * eps * mag};
}

TEST(CudaKernels, Reductions) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(4);
  struct Case {
    Attrs attrs;
    std::vector<int64_t> outShape;
  };
  std::vector<Case> cases = {
      {{}, {}},                                        // everything
      {{std::vector<int64_t>{-1}, false}, {6, 7}},     // row reduction
      {{std::vector<int64_t>{0}, true}, {1, 7, 300}},  // leading axis
      {{std::vector<int64_t>{0, 2}, false}, {7}},      // two axes
      {{std::vector<int64_t>{1, 2}, true}, {6, 1, 1}}, // trailing pair
  };
  for (const char *sym : {"graft.sum", "graft.mean", "graft.prod", "graft.max", "graft.min"})
    for (DLDataType t : kAllTypes)
      for (const Case &c : cases) {
        SCOPED_TRACE(std::string(sym) + " " + typeName(t));
        bool prod = llvm::StringRef(sym) == "graft.prod";
        // Products of values near 1 stay finite; integers wrap alike.
        TestTensor x = prod && isFloat(t) ? randomTensor(t, {6, 7, 300}, rng, 0.99, 1.01)
                                          : randomTensor(t, {6, 7, 300}, rng);
        TestTensor co(t, c.outShape), go(t, c.outShape);
        std::string cpuErr = runKernel(sym, {&x}, {&co}, c.attrs);
        std::string gpuErr = runCuda(sym, {&x}, {&go}, c.attrs);
        if (!cpuErr.empty()) {
          EXPECT_NE(gpuErr, "") << cpuErr;
          continue;
        }
        ASSERT_EQ(gpuErr, "");
        bool order = llvm::StringRef(sym) == "graft.max" || llvm::StringRef(sym) == "graft.min";
        Bound b = order ? Bound{} : sumBound(x, t, 6 * 7 * 300);
        if (prod)
          b = {2, 1e-4};
        EXPECT_EQ(compare(co, go, b), "");
      }
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string r;
  for (int64_t d : shape)
    r += (r.empty() ? "" : "x") + std::to_string(d);
  return "[" + r + "]";
}

Bound nnBound(DLDataType t) {
  // float64: rows of 8192 summed in another order than the CPU's differ by
  // about 1.1e-14 near zero (seen on the H200), past a relative bound.
  if (t.bits == 64)
    return {32, 1e-13};
  return {t.bits == 16 ? 2.0 : 32.0, 1e-6};
}

TEST(CudaKernels, SoftmaxAndLogSoftmax) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(5);
  struct Case {
    std::vector<int64_t> shape;
    int64_t axis;
  };
  // Short rows, rows in registers with 16-byte loads, an odd row length,
  // a middle axis and rows too long for registers (general kernel); rows a
  // warp takes when forced (4, 8 and 16 vectors a lane, the last partly,
  // row counts that leave warps of a block idle), each through the warp per
  // row, the block per row (the default) and the streamed warp form
  // (GRAFT_CUDA_ROWS=warp, block, warp-cs).
  std::vector<Case> cases = {{{5, 33}, -1},    {{3, 4096}, -1}, {{4, 1001}, 1}, {{2, 3, 7}, 1},
                             {{2, 40000}, -1}, {{}, -1},        {{5, 800}, -1}, {{7, 4096}, -1},
                             {{3, 2048}, -1},  {{6, 1024}, -1}, {{9, 1600}, -1}};
  for (const char *rows : {"warp", "block", "warp-cs"}) {
    setenv("GRAFT_CUDA_ROWS", rows, 1);
    for (const char *sym : {"graft.nn.softmax", "graft.nn.log_softmax"})
      for (DLDataType t : kFloatTypes)
        for (const Case &c : cases) {
          SCOPED_TRACE(std::string(rows) + " " + sym + " " + typeName(t) + " " +
                       shapeText(c.shape));
          TestTensor x = randomTensor(t, c.shape, rng, -8, 8);
          TestTensor co(t, c.shape), go(t, c.shape);
          RUN_OK(sym, {&x}, {&co}, {c.axis});
          ASSERT_EQ(runCuda(sym, {&x}, {&go}, {c.axis}), "");
          EXPECT_EQ(compare(co, go, nnBound(t)), "");
        }
  }
  unsetenv("GRAFT_CUDA_ROWS");
}

TEST(CudaKernels, LayerNormAndRmsNorm) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(6);
  struct Case {
    std::vector<int64_t> shape, inner, axes;
  };
  // The last five: rows a warp takes when forced (see SoftmaxAndLogSoftmax),
  // each through every row form (GRAFT_CUDA_ROWS=warp, block, warp-cs,
  // persist, persist-cs). The persistent forms take every case but 4x33
  // (not a whole number of vectors: the block's scalar path) and 3x8192
  // float64 (too long for them: the block per row).
  std::vector<Case> cases = {{{8, 768}, {768}, {-1}},         {{4, 33}, {33}, {1}},
                             {{2, 3, 64}, {3, 64}, {-2, -1}}, {{3, 8192}, {8192}, {-1}},
                             {{5, 800}, {800}, {-1}},         {{7, 4096}, {4096}, {-1}},
                             {{3, 2048}, {2048}, {-1}},       {{2, 3, 1024}, {3, 1024}, {-2, -1}},
                             {{6, 1024}, {1024}, {-1}}};
  for (const char *rows : {"warp", "block", "warp-cs", "persist", "persist-cs"})
    for (DLDataType t : kFloatTypes)
      for (const Case &c : cases) {
        setenv("GRAFT_CUDA_ROWS", rows, 1);
        SCOPED_TRACE(std::string(rows) + " " + typeName(t) + " " + shapeText(c.shape));
        TestTensor x = randomTensor(t, c.shape, rng, -3, 5);
        TestTensor gamma = randomTensor(t, c.inner, rng), beta = randomTensor(t, c.inner, rng);
        for (bool center : {true, false}) {
          Attrs attrs = {c.axes, 1e-5, center, true};
          TestTensor co(t, c.shape), go(t, c.shape);
          RUN_OK("graft.nn.layer_norm", {&x, &gamma, &beta}, {&co}, attrs);
          ASSERT_EQ(runCuda("graft.nn.layer_norm", {&x, &gamma, &beta}, {&go}, attrs), "");
          EXPECT_EQ(compare(co, go, nnBound(t)), "");
        }
        Attrs attrs = {c.axes, 1e-6};
        TestTensor co(t, c.shape), go(t, c.shape);
        RUN_OK("graft.nn.rms_norm", {&x, &gamma}, {&co}, attrs);
        ASSERT_EQ(runCuda("graft.nn.rms_norm", {&x, &gamma}, {&go}, attrs), "");
        EXPECT_EQ(compare(co, go, nnBound(t)), "");
        unsetenv("GRAFT_CUDA_ROWS");
      }
}

TEST(CudaKernels, NormPersistentRowsLoop) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  // More rows than a device of up to 132 SMs keeps resident, so each block
  // of the persistent forms takes several rows in turn (the next row's
  // loads in flight), the last blocks fewer: 9001 rows of 200 (one warp a
  // row, vectors of a thread partly past the row's end), 5000 of 1024 (32
  // to 128 threads a row by dtype) and 2200 of 4096 (128 threads a row of a
  // 16-bit type: at most 16 such blocks an SM).
  struct Case {
    std::vector<int64_t> shape, inner;
  };
  std::vector<Case> cases = {{{9001, 200}, {200}}, {{5000, 1024}, {1024}}, {{2200, 4096}, {4096}}};
  for (const char *rows : {"persist", "persist-cs"})
    for (DLDataType t : kFloatTypes)
      for (const Case &c : cases) {
        setenv("GRAFT_CUDA_ROWS", rows, 1);
        SCOPED_TRACE(std::string(rows) + " " + typeName(t) + " " + shapeText(c.shape));
        TestTensor x = randomTensor(t, c.shape, rng, -3, 5);
        TestTensor gamma = randomTensor(t, c.inner, rng), beta = randomTensor(t, c.inner, rng);
        Attrs ln = {std::vector<int64_t>{-1}, 1e-5, true, true};
        TestTensor co(t, c.shape), go(t, c.shape);
        RUN_OK("graft.nn.layer_norm", {&x, &gamma, &beta}, {&co}, ln);
        ASSERT_EQ(runCuda("graft.nn.layer_norm", {&x, &gamma, &beta}, {&go}, ln), "");
        EXPECT_EQ(compare(co, go, nnBound(t)), "");
        Attrs rms = {std::vector<int64_t>{-1}, 1e-6};
        TestTensor cr(t, c.shape), gr(t, c.shape);
        RUN_OK("graft.nn.rms_norm", {&x, &gamma}, {&cr}, rms);
        ASSERT_EQ(runCuda("graft.nn.rms_norm", {&x, &gamma}, {&gr}, rms), "");
        EXPECT_EQ(compare(cr, gr, nnBound(t)), "");
        unsetenv("GRAFT_CUDA_ROWS");
      }
}

/// The per-element bound of a matmul: 1 ulp + 2 k eps sum_k |a_ik b_kj|,
/// taken as the largest over the output (a uniform bound).
Bound matmulBound(TestTensor &a, TestTensor &b, int64_t k, DLDataType t) {
  double amax = 0, bmax = 0;
  for (double v : a.values())
    amax = std::max(amax, std::fabs(v));
  for (double v : b.values())
    bmax = std::max(bmax, std::fabs(v));
  double eps = t.bits == 64 ? DBL_EPSILON : FLT_EPSILON;
  return {1, 2 * double(k) * eps * double(k) * amax * bmax};
}

TEST(CudaKernels, Matmul) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  struct Case {
    std::vector<int64_t> a, b, out;
    int64_t k;
  };
  std::vector<Case> cases = {{{64, 32}, {32, 48}, {64, 48}, 32},
                             {{3, 16, 8}, {8, 24}, {3, 16, 24}, 8},
                             {{16, 8}, {2, 8, 24}, {2, 16, 24}, 8},
                             {{2, 3, 5, 7}, {2, 3, 7, 4}, {2, 3, 5, 4}, 7},
                             {{5, 7}, {7}, {5}, 7},
                             {{7}, {7, 3}, {3}, 7},
                             {{300, 257}, {257, 129}, {300, 129}, 257}};
  for (DLDataType t : kFloatTypes)
    for (const Case &c : cases) {
      SCOPED_TRACE(typeName(t) + " k=" + std::to_string(c.k));
      TestTensor a = randomTensor(t, c.a, rng, -1, 1), b = randomTensor(t, c.b, rng, -1, 1);
      TestTensor co(t, c.out), go(t, c.out);
      RUN_OK("graft.matmul", {&a, &b}, {&co});
      ASSERT_EQ(runCuda("graft.matmul", {&a, &b}, {&go}), "");
      EXPECT_EQ(compare(co, go, matmulBound(a, b, c.k, t)), "");
    }
  TestTensor ia(I32, {2, 2}), ib(I32, {2, 2}), io(I32, {2, 2});
  EXPECT_EQ(runCuda("graft.matmul", {&ia, &ib}, {&io}),
            "graft.matmul: on CUDA, takes float16, bfloat16, float32 or float64 with an output "
            "of the same dtype; got int32 into int32");
}

TEST(CudaKernels, PermuteDims) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(8);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {3, 4, 5}, rng);
    for (Attrs attrs : {Attrs{std::vector<int64_t>{2, 0, 1}}, Attrs{}}) {
      std::vector<int64_t> shape =
          attrs.empty() ? std::vector<int64_t>{5, 4, 3} : std::vector<int64_t>{5, 3, 4};
      TestTensor c(t, shape), g(t, shape);
      RUN_OK("graft.permute_dims", {&x}, {&c}, attrs);
      ASSERT_EQ(runCuda("graft.permute_dims", {&x}, {&g}, attrs), "");
      EXPECT_EQ(compare(c, g), "");
    }
  }
}

} // namespace
} // namespace graft::cuda::test

namespace graft::cuda::test {
namespace {

TEST(CudaKernels, LayoutCopies) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(9);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    TestTensor x = randomTensor(t, {4, 6, 5}, rng);
    TestTensor cr(t, {24, 5}), gr(t, {24, 5});
    RUN_OK("graft.reshape", {&x}, {&cr});
    ASSERT_EQ(runCuda("graft.reshape", {&x}, {&gr}), "");
    EXPECT_EQ(compare(cr, gr), "");
    TestTensor row = randomTensor(t, {1, 5}, rng);
    TestTensor cb(t, {3, 4, 5}), gb(t, {3, 4, 5});
    RUN_OK("graft.broadcast_to", {&row}, {&cb});
    ASSERT_EQ(runCuda("graft.broadcast_to", {&row}, {&gb}), "");
    EXPECT_EQ(compare(cb, gb), "");
    Attrs slice = {std::vector<int64_t>{0, 2}, std::vector<int64_t>{-1, 4},
                   std::vector<int64_t>{-100, 0}, std::vector<int64_t>{-2, -3}};
    TestTensor cs(t, {2, 6, 2}), gs(t, {2, 6, 2});
    RUN_OK("graft.strided_slice", {&x}, {&cs}, slice);
    ASSERT_EQ(runCuda("graft.strided_slice", {&x}, {&gs}, slice), "");
    EXPECT_EQ(compare(cs, gs), "");
    TestTensor cond = randomTensor(I32, {4, 1, 5}, rng, -1, 1), y = randomTensor(t, {6, 5}, rng);
    TestTensor m = randomTensor(BOOL, {5}, rng);
    TestTensor cw(t, {4, 6, 5}), gw(t, {4, 6, 5});
    RUN_OK("graft.where", {&cond, &x, &y}, {&cw});
    ASSERT_EQ(runCuda("graft.where", {&cond, &x, &y}, {&gw}), "");
    EXPECT_EQ(compare(cw, gw), "");
    TestTensor cm(t, {4, 6, 5}), gm(t, {4, 6, 5});
    RUN_OK("graft.where", {&cond, &m, &x}, {&cm});
    ASSERT_EQ(runCuda("graft.where", {&cond, &m, &x}, {&gm}), "");
    EXPECT_EQ(compare(cm, gm), "");
  }
}

// where with a bool mask and compact operands of one shape (the masked copy
// fuse-masked-copy makes) takes the flat kernel: every dtype, a length that
// leaves a tail after the vector loads, and bool (which keeps the general
// path's canonical 0 and 1).
TEST(CudaKernels, WhereOfOneShapeTakesTheFlatKernel) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(11);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    for (int64_t n : {int64_t(1), int64_t(1037)}) {
      TestTensor cond = randomTensor(BOOL, {n, 3}, rng), x = randomTensor(t, {n, 3}, rng),
                 y = randomTensor(t, {n, 3}, rng);
      TestTensor cw(t, {n, 3}), gw(t, {n, 3});
      RUN_OK("graft.where", {&cond, &x, &y}, {&cw});
      ASSERT_EQ(runCuda("graft.where", {&cond, &x, &y}, {&gw}), "");
      EXPECT_EQ(compare(cw, gw), "");
    }
  }
}

/// Frees the module's process-lifetime buffers at the end, so that
/// compute-sanitizer's leak check reports only real leaks.
class ReleaseModule : public ::testing::Environment {
public:
  void TearDown() override {
    if (device())
      device()->module().api().releaseResources();
  }
};
const auto *kRelease = ::testing::AddGlobalTestEnvironment(new ReleaseModule);

} // namespace
} // namespace graft::cuda::test

namespace graft::cuda::test {
namespace {

TEST(CudaKernels, CumsumAndCumprod) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(10);
  struct Case {
    std::vector<int64_t> shape;
    Attrs attrs;
    std::vector<int64_t> out;
  };
  // Many short rows (a thread per row), few long rows (chunked), a leading
  // axis; one row, flattened or along an axis, inclusive and exclusive
  // (cub::DeviceScan where the dtype is its own accumulator): one element,
  // lengths that are no multiple of a tile.
  std::vector<Case> cases = {{{4096, 7}, {int64_t(1), false}, {4096, 7}},
                             {{3, 9000}, {int64_t(-1), true}, {3, 9000}},
                             {{2, 3, 700}, {std::monostate(), false}, {4200}},
                             {{300, 5}, {int64_t(0), false}, {300, 5}},
                             {{1}, {std::monostate(), true}, {1}},
                             {{1}, {int64_t(0), false}, {1}},
                             {{1, 66001}, {int64_t(-1), true}, {1, 66001}},
                             {{66001}, {int64_t(0), false}, {66001}},
                             {{7, 3}, {std::monostate(), true}, {21}}};
  for (const char *sym : {"graft.cumsum", "graft.cumprod"})
    for (DLDataType t : kAllTypes)
      for (const Case &c : cases) {
        SCOPED_TRACE(std::string(sym) + " " + typeName(t) + " " + std::to_string(c.out[0]));
        bool prod = llvm::StringRef(sym) == "graft.cumprod";
        TestTensor x = prod && isFloat(t) ? randomTensor(t, c.shape, rng, 0.999, 1.001)
                                          : randomTensor(t, c.shape, rng, -3, 3);
        TestTensor co(t, c.out), go(t, c.out);
        std::string cpuErr = runKernel(sym, {&x}, {&co}, c.attrs);
        std::string gpuErr = runCuda(sym, {&x}, {&go}, c.attrs);
        if (!cpuErr.empty()) {
          EXPECT_NE(gpuErr, "") << cpuErr;
          continue;
        }
        ASSERT_EQ(gpuErr, "");
        int64_t n = c.out.size() == 1 ? c.out[0] : c.shape[1];
        Bound b = prod ? Bound{4, 1e-3} : sumBound(x, t, n);
        EXPECT_EQ(compare(co, go, b), "");
      }
}

TEST(CudaKernels, SortAndArgsort) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(11);
  // One long row (device radix sort) and many short rows (a block each),
  // both directions; integers in a small range give many ties (stability).
  for (DLDataType t : kAllTypes)
    for (std::vector<int64_t> shape : {std::vector<int64_t>{5000}, std::vector<int64_t>{37, 129}})
      for (bool desc : {false, true}) {
        SCOPED_TRACE(typeName(t) + (desc ? " descending " : " ") + std::to_string(shape[0]));
        TestTensor x = randomTensor(t, shape, rng, -20, 20);
        Attrs attrs = {int64_t(-1), desc};
        TestTensor cs(t, shape), gs(t, shape);
        RUN_OK("graft.sort", {&x}, {&cs}, attrs);
        ASSERT_EQ(runCuda("graft.sort", {&x}, {&gs}, attrs), "");
        EXPECT_EQ(compare(cs, gs), "");
        for (DLDataType it : {I64, I32}) {
          TestTensor ca(it, shape), ga(it, shape);
          RUN_OK("graft.argsort", {&x}, {&ca}, attrs);
          ASSERT_EQ(runCuda("graft.argsort", {&x}, {&ga}, attrs), "");
          EXPECT_EQ(compare(ca, ga), "");
        }
      }
  // Rows a block sorts (up to 4096 elements) at each block size's edges,
  // rows of one element, and the first length past a block (segmented).
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{1}, std::vector<int64_t>{3, 1}, std::vector<int64_t>{5, 128},
        std::vector<int64_t>{4, 129}, std::vector<int64_t>{3, 513}, std::vector<int64_t>{3, 2048},
        std::vector<int64_t>{2, 2049}, std::vector<int64_t>{2, 4096},
        std::vector<int64_t>{2, 4097}})
    for (DLDataType t : kAllTypes)
      for (bool desc : {false, true}) {
        SCOPED_TRACE(typeName(t) + (desc ? " descending " : " ") + std::to_string(shape.back()));
        TestTensor x = randomTensor(t, shape, rng, -20, 20);
        Attrs attrs = {int64_t(-1), desc};
        TestTensor cs(t, shape), gs(t, shape);
        RUN_OK("graft.sort", {&x}, {&cs}, attrs);
        ASSERT_EQ(runCuda("graft.sort", {&x}, {&gs}, attrs), "");
        EXPECT_EQ(compare(cs, gs), "");
        for (DLDataType it : {I64, I32}) {
          TestTensor ca(it, shape), ga(it, shape);
          RUN_OK("graft.argsort", {&x}, {&ca}, attrs);
          ASSERT_EQ(runCuda("graft.argsort", {&x}, {&ga}, attrs), "");
          EXPECT_EQ(compare(ca, ga), "");
        }
      }
  // NaN sorts last ascending and first descending; -0.0 ties with +0.0.
  Vals v = {3.0, NAN, -0.0, 1.0, 0.0, -INFINITY, NAN, 2.0, -0.0, INFINITY};
  for (DLDataType t : kFloatTypes)
    for (bool desc : {false, true}) {
      SCOPED_TRACE(typeName(t) + (desc ? " descending" : ""));
      TestTensor x(t, {10}, v);
      Attrs attrs = {int64_t(0), desc};
      TestTensor ca(I64, {10}), ga(I64, {10});
      RUN_OK("graft.argsort", {&x}, {&ca}, attrs);
      ASSERT_EQ(runCuda("graft.argsort", {&x}, {&ga}, attrs), "");
      EXPECT_EQ(compare(ca, ga), "");
    }
}

} // namespace
} // namespace graft::cuda::test
