//===- tests/cuda/ScatterTest.cpp - scatter_elements against the CPU -------===//
//
// Bounds: exact for every dtype and reduction, floats included: the CUDA
// kernel folds each element's updates in index order with the CPU kernel's
// accumulator types and rounding steps (docs/cuda.md), so the bits match.
// Runs twice must agree too (determinism), checked on the long-run case.
// Each case runs through the three sort plans (all updates by element,
// each line by axis position, tiles of lines in a block), forced with
// GRAFT_CUDA_SCATTER. The owner fold (no sort; chunk partials combined in
// chunk order) has its own small tests, CudaScatter.OwnerFold*, small
// enough for compute-sanitizer racecheck: also exact, its chunks forced
// small with GRAFT_CUDA_SCATTER_ROWS where chunking keeps the CPU's bits.
// The column walk (GRAFT_CUDA_SCATTER=column: a fold thread per line and
// axis position) has CudaScatter.Column* and two paths in EveryPathSmall;
// the ranked walk (GRAFT_CUDA_SCATTER=match: a warp per line, lanes grouped
// by the position they name) runs the same tests and three paths there, in
// each form GRAFT_CUDA_SCATTER_WALK, _LANES (the lane walk a warp a line or
// packed) and _SPLIT (two warps a line, the default for small grids, or one)
// select. A bad index is reported at the next synchronization
// (CudaScatter.BadIndexIsReported*).
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

const char *const kReductions[] = {"update", "add", "mul", "mean", "amax", "amin"};

struct Case {
  std::vector<int64_t> data, idx, upd;
  int64_t axis, lo, hi;
};

/// scatter_elements on random inputs for case `c` (indices in [lo, hi]),
/// the CUDA kernel against the CPU's: the same bits, or, where
/// `cpuMayRefuse` and the CPU refuses the inputs, the same message. `mul`
/// updates of floats stay within `spread` of 1 so products stay finite.
void expectMatchesCpu(const Case &c, DLDataType t, const char *red, bool self, DLDataType it,
                      double spread, bool cpuMayRefuse, std::mt19937_64 &rng) {
  bool mul = std::string(red) == "mul";
  TestTensor data = randomTensor(t, c.data, rng);
  TestTensor idx = randomTensor(it, c.idx, rng, double(c.lo), double(c.hi));
  TestTensor upd = mul && isFloat(t) ? randomTensor(t, c.upd, rng, 1 - spread, 1 + spread)
                                     : randomTensor(t, c.upd, rng);
  Attrs attrs = {c.axis, std::string(red), self};
  TestTensor co(t, c.data), go(t, c.data);
  std::string cpuErr = runKernel("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
  std::string gpuErr = runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&go}, attrs);
  if (cpuMayRefuse && !cpuErr.empty()) {
    EXPECT_EQ(gpuErr, cpuErr);
    return;
  }
  ASSERT_EQ(cpuErr, "");
  ASSERT_EQ(gpuErr, "");
  EXPECT_EQ(compare(co, go), "");
}

TEST(CudaScatter, EveryReductionEveryDType) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(41);
  // Short runs along axis 0 (updates larger than indices), a negative
  // axis, and long runs (150 updates per element: a warp per element).
  std::vector<Case> cases = {{{6, 5}, {40, 5}, {45, 6}, 0, -6, 5},
                             {{4, 7}, {3, 20}, {3, 20}, -1, -7, 6},
                             {{2, 3}, {300, 3}, {300, 3}, 0, 0, 1},
                             {{2, 3, 4}, {2, 70, 4}, {2, 70, 5}, 1, -3, 2}};
  // The index dtype alternates (int32 and int64 each meet every dtype and
  // reduction across the self flag), which keeps the sanitizer runs short.
  for (const char *plan : {"global", "lines", "tile"})
    for (const Case &c : cases)
      for (DLDataType t : kAllTypes)
        for (const char *red : kReductions)
          for (bool self : {true, false}) {
            DLDataType it = self ? I64 : I32;
            setenv("GRAFT_CUDA_SCATTER", plan, 1);
            SCOPED_TRACE(std::string(plan) + " " + typeName(t) + " " + red +
                         (self ? " self " : " ") + typeName(it) + " axis " +
                         std::to_string(c.axis) + " " + std::to_string(c.idx[0]));
            expectMatchesCpu(c, t, red, self, it, 0.1, true, rng);
          }
  unsetenv("GRAFT_CUDA_SCATTER");
}

TEST(CudaScatter, TileEdges) {
  // The tile plan at its edges: one update, lines of one update (many
  // lines to a tile), a line as long as a tile (8192), lines of 4096 (two
  // to a tile, the last tile half full), long runs into few elements, and
  // 64 lines to a tile against more (offsets from a table or computed).
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(43);
  std::vector<Case> cases = {{{1}, {1}, {1}, 0, 0, 1},
                             {{5, 1}, {1, 1}, {1, 1}, 0, -5, 5},
                             {{9, 300}, {1, 300}, {2, 301}, 0, 0, 9},
                             {{7, 2}, {8192, 1}, {8192, 2}, 0, -7, 7},
                             {{4, 3}, {4096, 3}, {4096, 3}, 0, 0, 4},
                             {{2, 5}, {700, 5}, {700, 5}, 0, 0, 2},
                             {{70, 3}, {70, 2}, {70, 3}, 1, -3, 3},
                             {{3, 130}, {2, 130}, {3, 130}, 0, 0, 3}};
  for (const char *plan : {"tile", ""})
    for (const Case &c : cases)
      for (DLDataType t : {F32, BF16, F64, I32, BOOL})
        for (const char *red : kReductions)
          for (bool self : {true, false}) {
            if (t.code == kernels::kGraftDLBool && std::string(red) != "add" &&
                std::string(red) != "update")
              continue;
            DLDataType it = self ? I64 : I32;
            if (*plan)
              setenv("GRAFT_CUDA_SCATTER", plan, 1);
            else
              unsetenv("GRAFT_CUDA_SCATTER");
            SCOPED_TRACE(std::string(plan) + " " + typeName(t) + " " + red +
                         (self ? " self " : " ") + typeName(it) + " axis " +
                         std::to_string(c.axis) + " " + std::to_string(c.idx[0]));
            Case inRange = c;
            inRange.hi = c.hi - 1;
            expectMatchesCpu(inRange, t, red, self, it, 0.01, false, rng);
          }
  unsetenv("GRAFT_CUDA_SCATTER");
}

// Every path of the kernel at the smallest shapes that take it, each
// reduction on each, for compute-sanitizer racecheck: the two tests above
// launch about 2000 kernels (a third of them tiles of 1024 threads sorting
// in shared memory) and do not finish under it, so tools/gpu-check.sh runs
// this one instead (they still run in the plain test run). Per path and
// reduction: float16 (a float accumulator, or a product rounded at every
// step) and one more dtype taking turns, so every width of the tile's
// values (1, 2, 4, 8 bytes) meets it; int32 and int64 indices alternate.
TEST(CudaScatter, EveryPathSmall) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(44);
  struct Path {
    const char *plan, *what;
    Case c;
    /// Knobs of the ranked walk set for this path (name, value).
    std::vector<std::pair<const char *, const char *>> env = {};
  };
  // Index bounds [lo, hi] are inclusive and in range (negative from the end).
  const Case shortRuns = {{6, 5}, {12, 5}, {12, 5}, 0, -6, 5};
  const Case longRuns = {{2, 3}, {70, 3}, {70, 3}, 0, -2, 1}; // >= 32 updates per element
  const std::vector<Path> paths = {
      {"global", "all updates sorted, a thread per element", shortRuns},
      {"global", "all updates sorted, a warp per element", longRuns},
      {"lines", "lines sorted, a thread per element", shortRuns},
      {"lines", "lines sorted, a warp per element", longRuns},
      {"tile", "one tile, line offsets from the table", {{4, 7}, {3, 20}, {3, 20}, -1, -7, 6}},
      {"tile", "128 lines to a tile, offsets computed", {{70, 3}, {70, 2}, {70, 3}, 1, -3, 2}},
      {"",
       "default: tiles (two, the last one line of four)",
       {{100, 5}, {2048, 5}, {2048, 5}, 0, -100, 99}},
      {"", "default: all updates (long runs)", longRuns},
      {"", "default: lines (256 lines of 64)", {{2, 256}, {64, 256}, {64, 256}, 0, 0, 1}},
      {"column", "column walk, a line a block", shortRuns},
      {"column-smem", "column walk, accumulators in shared memory", shortRuns},
      {"column-smem", "column walk, accumulators in shared memory, batches of one row", longRuns},
      {"column",
       "column walk, two lines a block, the last block one line",
       {{3, 601}, {5, 601}, {5, 601}, 0, -3, 2}},
      {"match", "ranked walk, a lane per position, a block of 5 lines", shortRuns},
      {"match", "ranked walk, a lane per position, long runs", longRuns},
      {"match",
       "ranked walk, a lane per position, two blocks (the last one line), two stretches",
       {{4, 9}, {300, 9}, {300, 9}, 0, -4, 3}},
      {"match",
       "ranked walk, a lane per position, packed a line a warp",
       {{24, 9}, {300, 9}, {300, 9}, 0, -24, 23},
       {{"GRAFT_CUDA_SCATTER_LANES", "packed"}}},
      {"match",
       "ranked walk, a lane per position, packed two lines a warp",
       {{12, 9}, {300, 9}, {300, 9}, 0, -12, 11},
       {{"GRAFT_CUDA_SCATTER_LANES", "packed"}}},
      {"match",
       "ranked walk, a lane per position, packed four lines a warp (the second warp one line)",
       shortRuns,
       {{"GRAFT_CUDA_SCATTER_LANES", "packed"}}},
      {"match",
       "ranked walk, a lane per position, a warp a line forced (two blocks, two stretches)",
       {{4, 9}, {300, 9}, {300, 9}, 0, -4, 3},
       {{"GRAFT_CUDA_SCATTER_LANES", "warp"}}},
      {"match",
       "ranked walk split, two warps a line, two blocks of 4 lines (the last one line)",
       {{40, 5}, {300, 5}, {300, 5}, 0, -40, 39},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "2"}}},
      {"match",
       "ranked walk split, two stretches of 512 rows",
       {{33, 3}, {600, 3}, {600, 3}, 0, -33, 32},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "2"}}},
      {"match",
       "ranked walk split, groups by shared-memory atomics",
       {{40, 5}, {300, 5}, {300, 5}, 0, -40, 39},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "2"}, {"GRAFT_CUDA_SCATTER_WALK", "atomic"}}},
      {"match",
       "ranked walk split, in rounds",
       {{33, 2}, {100, 2}, {100, 2}, 0, -33, -32},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "2"}, {"GRAFT_CUDA_SCATTER_WALK", "rounds"}}},
      {"match",
       "ranked walk unsplit forced, a warp a line, two stretches",
       {{40, 9}, {300, 9}, {300, 9}, 0, -40, 39},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "1"}}},
      {"match",
       "ranked walk unsplit forced, groups by shared-memory atomics",
       {{40, 5}, {300, 5}, {300, 5}, 0, -40, 39},
       {{"GRAFT_CUDA_SCATTER_SPLIT", "1"}, {"GRAFT_CUDA_SCATTER_WALK", "atomic"}}},
      {"match", "ranked walk in rounds, two stretches", {{40, 9}, {300, 9}, {300, 9}, 0, -40, 39}},
      {"match", "ranked walk in rounds, many rounds", {{33, 2}, {100, 2}, {100, 2}, 0, -33, -32}},
      // 600 lines fill half a block per SM of the H200 (132 SMs): the
      // ranked walk by default (with a lane per position for float sums,
      // products and means; the owner fold for the others).
      {"",
       "default: the ranked walk in rounds (600 lines of 64)",
       {{40, 600}, {64, 600}, {64, 600}, 0, -40, 39}},
      {"",
       "default: the ranked walk with a lane per position, or the owner fold",
       {{4, 600}, {64, 600}, {64, 600}, 0, -4, 3}},
      {"", "default: the ranked walk, lines of 8", {{40, 600}, {8, 600}, {8, 600}, 0, -40, 39}},
      // Indices narrower than the data outside the axis: the walks do not
      // cover the output, so the data is copied first.
      {"match",
       "ranked walk, lines narrower than the data",
       {{4, 40}, {30, 33}, {30, 35}, 0, -4, 3}},
      {"owner",
       "owner fold, lines narrower than the data",
       {{4, 40}, {30, 33}, {30, 35}, 0, -4, 3}},
  };
  const std::vector<DLDataType> others = {F32, I8, F64, BF16, I32, I64, U8, BOOL, I16};
  size_t turn = 0;
  for (size_t p = 0; p < paths.size(); ++p) {
    const Path &path = paths[p];
    if (*path.plan)
      setenv("GRAFT_CUDA_SCATTER", path.plan, 1);
    else
      unsetenv("GRAFT_CUDA_SCATTER");
    for (const auto &[name, value] : path.env)
      setenv(name, value, 1);
    for (size_t r = 0; r < std::size(kReductions); ++r) {
      const char *red = kReductions[r];
      bool self = (p + r) % 2 == 0;
      DLDataType it = self ? I64 : I32;
      DLDataType other = others[turn++ % others.size()];
      if (other.code == kernels::kGraftDLBool && std::string(red) != "add" &&
          std::string(red) != "update")
        other = F32;
      for (DLDataType t : {F16, other}) {
        const Case &c = path.c;
        SCOPED_TRACE(std::string(path.what) + ": " + typeName(t) + " " + red +
                     (self ? " self " : " ") + typeName(it));
        expectMatchesCpu(c, t, red, self, it, 0.01, false, rng);
      }
    }
    for (const auto &[name, value] : path.env)
      unsetenv(name);
  }
  unsetenv("GRAFT_CUDA_SCATTER");
}

TEST(CudaScatter, NaNKeptByMaxAndMin) {
  GRAFT_REQUIRE_GPU();
  for (DLDataType t : kFloatTypes)
    for (const char *red : {"amax", "amin"}) {
      SCOPED_TRACE(typeName(t) + " " + red);
      TestTensor data(t, {3}, {1.0, NAN, -2.0});
      TestTensor idx(I64, {6}, {0, 0, 1, 2, 2, 0});
      TestTensor upd(t, {6}, {NAN, 5.0, 3.0, -INFINITY, NAN, -7.0});
      Attrs attrs = {int64_t(0), std::string(red), true};
      TestTensor co(t, {3}), go(t, {3});
      RUN_OK("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
      ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&go}, attrs), "");
      EXPECT_EQ(compare(co, go), "");
    }
}

TEST(CudaScatter, DeterministicAndChecked) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(42);
  TestTensor data = randomTensor(F32, {4, 64}, rng);
  TestTensor idx = randomTensor(I64, {4096, 64}, rng, 0, 3);
  TestTensor upd = randomTensor(F32, {4096, 64}, rng);
  Attrs attrs = {int64_t(0), std::string("add"), true};
  TestTensor a(F32, {4, 64}), b(F32, {4, 64});
  ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&a}, attrs), "");
  ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&b}, attrs), "");
  EXPECT_EQ(compare(a, b), "");
  // Lines longer than a tile (9000 updates): the default plan falls back.
  TestTensor longIdx = randomTensor(I64, {9000, 3}, rng, 0, 1);
  TestTensor longUpd = randomTensor(BF16, {9000, 3}, rng);
  TestTensor longData = randomTensor(BF16, {2, 3}, rng);
  for (const char *red : kReductions) {
    Attrs longAttrs = {int64_t(0), std::string(red), false};
    TestTensor cl(BF16, {2, 3}), gl(BF16, {2, 3});
    RUN_OK("graft.scatter_elements", {&longData, &longIdx, &longUpd}, {&cl}, longAttrs);
    ASSERT_EQ(runCuda("graft.scatter_elements", {&longData, &longIdx, &longUpd}, {&gl}, longAttrs),
              "");
    EXPECT_EQ(compare(cl, gl), "") << red;
  }
  std::vector<int64_t> badValues(128);
  for (int64_t i = 0; i < 128; ++i)
    badValues[i] = i == 70 ? -9 : i % 4;
  TestTensor bad = TestTensor::ints(I32, {2, 64}, badValues);
  TestTensor small = randomTensor(F32, {2, 64}, rng);
  TestTensor co(F32, {4, 64}), go(F32, {4, 64});
  EXPECT_EQ(runCuda("graft.scatter_elements", {&data, &bad, &small}, {&go}, attrs),
            runKernel("graft.scatter_elements", {&data, &bad, &small}, {&co}, attrs));
}

/// Sets (or with nullptr unsets) an environment variable for one scope.
struct ScopedEnv {
  const char *name;
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() { unsetenv(name); }
};

/// Device copies of scatter_elements' tensors, made before any call so
/// that no copy (a synchronization point) falls between a call and the
/// synchronization a test makes, and the call without waiting.
struct DeviceScatter {
  DeviceTensor data, idx, upd, out;
  DeviceScatter(TestTensor &d, TestTensor &i, TestTensor &u, TestTensor &o)
      : data(d), idx(i), upd(u), out(o) {}

  /// The call's own error, or "" (its index check is read back later).
  std::string call(const Attrs &attrs) {
    const GraftCudaKernel *k = device()->module().findKernel("graft.scatter_elements");
    if (!k)
      return "no CUDA kernel";
    DLTensor *in[] = {data.dl(), idx.dl(), upd.dl()}, *outs[] = {out.dl()};
    kernels::KernelArgs args{in, outs, attrs, {}};
    size_t bytes = vm::cudaKernelWorkspaceBytes(*k, args, device()->stream());
    if (bytes > workspaceBytes) {
      if (workspace)
        device()->free(workspace, workspaceBytes);
      auto p = device()->allocate(bytes, 256);
      if (!p)
        return llvm::toString(p.takeError());
      workspace = *p;
      workspaceBytes = bytes;
    }
    args.workspace = {workspace, bytes};
    llvm::Error e = vm::runCudaKernel(*k, args, device()->stream());
    return e ? llvm::toString(std::move(e)) : "";
  }
  ~DeviceScatter() {
    if (workspace)
      device()->free(workspace, workspaceBytes);
  }
  void *workspace = nullptr;
  size_t workspaceBytes = 0;
};

std::string errorText(llvm::Error e) { return e ? llvm::toString(std::move(e)) : ""; }

TEST(CudaScatter, BadIndexIsReportedAtTheNextSynchronization) {
  // The call does not wait for its index check: it returns at once, and
  // the module's next synchronization (synchronize(), or a copy to or from
  // the host) fails with the CPU's message, once; through every plan.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(51);
  TestTensor data = randomTensor(F32, {4, 40}, rng);
  std::vector<int64_t> badValues(80), otherValues(80);
  for (int64_t i = 0; i < 80; ++i) {
    badValues[i] = i == 45 ? 4 : i == 61 ? -5 : i % 4;
    otherValues[i] = i == 3 ? 7 : i % 4;
  }
  TestTensor bad = TestTensor::ints(I64, {2, 40}, badValues);
  TestTensor other = TestTensor::ints(I64, {2, 40}, otherValues);
  TestTensor upd = randomTensor(F32, {2, 40}, rng);
  TestTensor co(F32, {4, 40}), go(F32, {4, 40}), back(F32, {4, 40});
  const Attrs attrs = {int64_t(0), std::string("add"), true};
  const std::string want = runKernel("graft.scatter_elements", {&data, &bad, &upd}, {&co}, attrs);
  ASSERT_EQ(want, "graft.scatter_elements: index 4 is out of range for axis 0 of size 4");
  const std::string wantOther =
      runKernel("graft.scatter_elements", {&data, &other, &upd}, {&co}, attrs);
  ASSERT_EQ(wantOther, "graft.scatter_elements: index 7 is out of range for axis 0 of size 4");
  DeviceScatter first(data, bad, upd, go), second(data, other, upd, go);
  for (const char *plan :
       {"", "global", "lines", "tile", "owner", "column", "column-smem", "match"}) {
    ScopedEnv force("GRAFT_CUDA_SCATTER", *plan ? plan : nullptr);
    SCOPED_TRACE(*plan ? plan : "default");
    ASSERT_EQ(first.call(attrs), "");
    EXPECT_EQ(errorText(device()->synchronize()), want);
    EXPECT_EQ(errorText(device()->synchronize()), "") << "reported once";
    // Two failing calls: the first in call order is reported, by a copy to
    // the host.
    ASSERT_EQ(first.call(attrs), "");
    ASSERT_EQ(second.call(attrs), "");
    EXPECT_EQ(errorText(device()->copy(back.dl()->data, {kDLCPU, 0}, first.out.dl()->data,
                                       {kDLCUDA, 0}, 4 * 40 * 4)),
              want);
    ASSERT_EQ(second.call(attrs), "");
    EXPECT_EQ(errorText(device()->synchronize()), wantOther);
  }
}

TEST(CudaScatter, BadIndexIsReportedWhenTheChecksRunOut) {
  // 1024 calls without a synchronization hold every record; the next call
  // reads them back and fails with the first failing call's message.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(52);
  TestTensor data = randomTensor(F32, {4, 40}, rng);
  std::vector<int64_t> badValues(80);
  for (int64_t i = 0; i < 80; ++i)
    badValues[i] = i == 45 ? -9 : i % 4;
  TestTensor bad = TestTensor::ints(I32, {2, 40}, badValues);
  TestTensor good = randomTensor(I32, {2, 40}, rng, 0, 3);
  TestTensor upd = randomTensor(F32, {2, 40}, rng);
  TestTensor co(F32, {4, 40}), go(F32, {4, 40});
  const Attrs attrs = {int64_t(0), std::string("amax"), false};
  const std::string want = runKernel("graft.scatter_elements", {&data, &bad, &upd}, {&co}, attrs);
  ASSERT_EQ(want, "graft.scatter_elements: index -9 is out of range for axis 0 of size 4");
  ScopedEnv force("GRAFT_CUDA_SCATTER", "match");
  DeviceScatter failing(data, bad, upd, go), passing(data, good, upd, go);
  ASSERT_EQ(errorText(device()->synchronize()), "");
  ASSERT_EQ(failing.call(attrs), "");
  for (int i = 1; i < 1024; ++i)
    ASSERT_EQ(passing.call(attrs), "") << "call " << i;
  EXPECT_EQ(passing.call(attrs), want);
  EXPECT_EQ(errorText(device()->synchronize()), "");
}

TEST(CudaScatter, OwnerFoldEveryReductionEveryDType) {
  // The owner fold at its edges: a tile of 32 lines and a partial one (33
  // lines), one target row, lines of one update, the last axis, a middle
  // axis, updates larger than the indices, negative indices. Chunks: as the
  // kernel picks them, or of 3, 7 and 4 axis positions (the kernel takes
  // GRAFT_CUDA_SCATTER_ROWS where chunks are exact: float sums, products
  // and means stay one chunk, in index order). About 600 runs, so that
  // racecheck takes them.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(47);
  std::vector<Case> cases = {{{5, 33}, {20, 33}, {21, 34}, 0, -5, 4},
                             {{1, 40}, {37, 40}, {37, 40}, 0, -1, 0},
                             {{3, 9}, {3, 50}, {3, 50}, 1, -9, 8},
                             {{2, 4, 3}, {2, 30, 3}, {2, 31, 3}, 1, -4, 3},
                             {{4, 70}, {1, 70}, {1, 70}, 0, 0, 3}};
  const char *const rowsOf[] = {nullptr, "3", "7", "4", nullptr};
  ScopedEnv plan("GRAFT_CUDA_SCATTER", "owner");
  int n = 0;
  for (size_t ci = 0; ci < cases.size(); ++ci)
    for (DLDataType t : kAllTypes)
      for (const char *red : kReductions)
        for (bool self : {true, false}) {
          const Case &c = cases[ci];
          const char *rows = rowsOf[ci];
          ScopedEnv chunk("GRAFT_CUDA_SCATTER_ROWS", rows);
          DLDataType it = (self != (++n % 3 == 0)) ? I64 : I32;
          SCOPED_TRACE(std::string(rows ? rows : "auto") + " " + typeName(t) + " " + red +
                       (self ? " self " : " ") + typeName(it) + " axis " + std::to_string(c.axis) +
                       " " + std::to_string(c.idx[0]));
          expectMatchesCpu(c, t, red, self, it, 0.1, true, rng);
        }
}

TEST(CudaScatter, OwnerFoldNaNAndChunkEdges) {
  // NaN kept by max and min across chunk boundaries (chunks of 1 and 2
  // updates), by the default plan (the owner fold: max and min chunk
  // exactly), and the last write winning across chunks.
  GRAFT_REQUIRE_GPU();
  for (const char *rows : {"1", "2", "4"})
    for (DLDataType t : kFloatTypes)
      for (const char *red : {"amax", "amin", "update"})
        for (bool self : {true, false}) {
          ScopedEnv chunk("GRAFT_CUDA_SCATTER_ROWS", rows);
          SCOPED_TRACE(std::string(rows) + " " + typeName(t) + " " + red + (self ? " self" : ""));
          TestTensor data(t, {3, 2}, {1.0, 0.5, NAN, 2.0, -2.0, 4.0});
          TestTensor idx(I32, {6, 2}, {0, 2, 0, 2, 1, 1, 2, 0, 2, 0, 0, 1});
          TestTensor upd(t, {6, 2},
                         {5.0, NAN, NAN, 3.0, 3.0, -1.0, -INFINITY, 7.0, NAN, -0.0, -7.0, 0.0});
          Attrs attrs = {int64_t(0), std::string(red), self};
          TestTensor co(t, {3, 2}), go(t, {3, 2});
          RUN_OK("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
          ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&go}, attrs), "");
          EXPECT_EQ(compare(co, go), "");
        }
}

TEST(CudaScatter, OwnerFoldDeterministicAndChecked) {
  // Runs agree bit for bit (also where float sums are split into chunks on
  // request, "owner-reorder": not the CPU's rounding order, so compared to
  // the CPU within a bound of the reordering), and a bad index gives the
  // CPU's error.
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(48);
  TestTensor data = randomTensor(F32, {4, 40}, rng);
  TestTensor idx = randomTensor(I64, {300, 40}, rng, 0, 3);
  TestTensor upd = randomTensor(F32, {300, 40}, rng);
  for (const char *plan : {"owner", "owner-reorder"})
    for (const char *red : {"add", "mean", "amax"}) {
      ScopedEnv force("GRAFT_CUDA_SCATTER", plan);
      ScopedEnv chunk("GRAFT_CUDA_SCATTER_ROWS", "7");
      SCOPED_TRACE(std::string(plan) + " " + red);
      Attrs attrs = {int64_t(0), std::string(red), true};
      TestTensor a(F32, {4, 40}), b(F32, {4, 40}), co(F32, {4, 40});
      ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&a}, attrs), "");
      ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&b}, attrs), "");
      EXPECT_EQ(compare(a, b), "");
      RUN_OK("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
      // About 75 updates of magnitude 4 or less an element: the reordered
      // sums are within 64 ulps of 300 (an upper bound of the sum's size).
      Bound reordered{0, 64 * 300 * 1.2e-7};
      EXPECT_EQ(compare(co, a, std::string(plan) == "owner" ? Bound{} : reordered), "");
    }
  ScopedEnv force("GRAFT_CUDA_SCATTER", "owner");
  std::vector<int64_t> badValues(80);
  for (int64_t i = 0; i < 80; ++i)
    badValues[i] = i == 45 ? 4 : i % 4;
  TestTensor bad = TestTensor::ints(I32, {2, 40}, badValues);
  TestTensor small = randomTensor(F32, {2, 40}, rng);
  Attrs attrs = {int64_t(0), std::string("amax"), true};
  TestTensor co(F32, {4, 40}), go(F32, {4, 40});
  EXPECT_EQ(runCuda("graft.scatter_elements", {&data, &bad, &small}, {&go}, attrs),
            runKernel("graft.scatter_elements", {&data, &bad, &small}, {&co}, attrs));
}

/// The plans that walk the lines without a sort, "plan/knob" forcing a
/// knob of the ranked walk too: GRAFT_CUDA_SCATTER_WALK, the ranked walk of
/// round 11 (rounds) and the groups found by shared-memory atomics (atomic,
/// axes of more than 32); "stage16" stages 512 rows at a time
/// (GRAFT_CUDA_SCATTER_STAGE); GRAFT_CUDA_SCATTER_LANES, the lane walk a
/// warp a line (warp) or 32 / P lines a warp (packed); "split2" two warps a
/// line, 4 lines a block, "split1" a warp a line, 8 lines a block
/// (GRAFT_CUDA_SCATTER_SPLIT, axes of more than 32).
const char *const kWalkForms[] = {"column",       "column-smem",   "match",        "match/rounds",
                                  "match/atomic", "match/stage16", "match/packed", "match/warp",
                                  "match/split2", "match/split1"};

/// Forces a form of kWalkForms for one scope.
struct ScopedPlan {
  std::string plan, knob;
  ScopedEnv planEnv, walkEnv, stageEnv, lanesEnv, splitEnv;
  explicit ScopedPlan(const std::string &f)
      : plan(f.substr(0, f.find('/'))),
        knob(f.find('/') == std::string::npos ? "" : f.substr(f.find('/') + 1)),
        planEnv("GRAFT_CUDA_SCATTER", plan.c_str()),
        walkEnv("GRAFT_CUDA_SCATTER_WALK",
                knob == "rounds" || knob == "atomic" ? knob.c_str() : nullptr),
        stageEnv("GRAFT_CUDA_SCATTER_STAGE", knob == "stage16" ? "16" : nullptr),
        lanesEnv("GRAFT_CUDA_SCATTER_LANES",
                 knob == "packed" || knob == "warp" ? knob.c_str() : nullptr),
        splitEnv("GRAFT_CUDA_SCATTER_SPLIT", knob == "split2"   ? "2"
                                             : knob == "split1" ? "1"
                                                                : nullptr) {}
};

TEST(CudaScatter, ColumnEveryReductionEveryDType) {
  // The column walk (a fold thread per line and axis position, no sort):
  // a line a block with two stretches (2100 updates, 2048 staged at a
  // time), two lines a block with the last block short (601 lines), the
  // longest axis it takes (128 positions), the last axis, a middle axis,
  // updates larger than the indices, negative indices, int32 and int64
  // indices. `column-smem` (a thread per line, accumulators in shared
  // memory, rows folded in batches of 4 that forward repeated positions)
  // the same, and an axis of 600 (only it takes that).
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(49);
  std::vector<Case> cases = {
      {{3, 5}, {2100, 5}, {2101, 6}, 0, -3, 2},      {{4, 601}, {9, 601}, {9, 601}, 0, -4, 3},
      {{128, 3}, {300, 3}, {300, 3}, 0, -128, 127},  {{3, 9}, {3, 50}, {3, 50}, 1, -9, 8},
      {{2, 4, 3}, {2, 30, 3}, {2, 31, 3}, 1, -4, 3}, {{600, 3}, {700, 3}, {700, 3}, 0, -600, 599}};
  int n = 0;
  for (const char *form : kWalkForms)
    for (const Case &c : cases)
      for (DLDataType t : kAllTypes)
        for (const char *red : kReductions)
          for (bool self : {true, false}) {
            ScopedPlan plan(form);
            DLDataType it = (self != (++n % 3 == 0)) ? I64 : I32;
            SCOPED_TRACE(std::string(form) + " " + typeName(t) + " " + red +
                         (self ? " self " : " ") + typeName(it) + " axis " +
                         std::to_string(c.axis) + " " + std::to_string(c.idx[0]));
            expectMatchesCpu(c, t, red, self, it, 0.01, true, rng);
          }
}

TEST(CudaScatter, ColumnNaNDeterministicAndChecked) {
  // NaN kept by max and min, -0 and the last write, two runs equal, and a
  // bad index (int32 and int64) gives the CPU's error; both forms.
  GRAFT_REQUIRE_GPU();
  for (const char *form : kWalkForms) {
    ScopedPlan plan(form);
    SCOPED_TRACE(form);
    for (DLDataType t : kFloatTypes)
      for (const char *red : {"amax", "amin", "update", "add"})
        for (bool self : {true, false}) {
          SCOPED_TRACE(typeName(t) + " " + red + (self ? " self" : ""));
          TestTensor data(t, {3, 2}, {1.0, 0.5, NAN, 2.0, -2.0, 4.0});
          TestTensor idx(I32, {6, 2}, {0, 2, 0, 2, 1, 1, 2, 0, 2, 0, 0, 1});
          TestTensor upd(t, {6, 2},
                         {5.0, NAN, NAN, 3.0, 3.0, -1.0, -INFINITY, 7.0, NAN, -0.0, -7.0, -0.0});
          Attrs attrs = {int64_t(0), std::string(red), self};
          TestTensor co(t, {3, 2}), go(t, {3, 2});
          RUN_OK("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
          ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&go}, attrs), "");
          EXPECT_EQ(compare(co, go), "");
        }
    std::mt19937_64 rng(50);
    TestTensor data = randomTensor(F32, {4, 40}, rng);
    TestTensor idx = randomTensor(I64, {3000, 40}, rng, 0, 3);
    TestTensor upd = randomTensor(F32, {3000, 40}, rng);
    for (const char *red : {"add", "mean"}) {
      SCOPED_TRACE(red);
      Attrs attrs = {int64_t(0), std::string(red), true};
      TestTensor a(F32, {4, 40}), b(F32, {4, 40}), co(F32, {4, 40});
      ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&a}, attrs), "");
      ASSERT_EQ(runCuda("graft.scatter_elements", {&data, &idx, &upd}, {&b}, attrs), "");
      EXPECT_EQ(compare(a, b), "");
      RUN_OK("graft.scatter_elements", {&data, &idx, &upd}, {&co}, attrs);
      EXPECT_EQ(compare(co, a), "");
    }
    std::vector<int64_t> badValues(80);
    for (int64_t i = 0; i < 80; ++i)
      badValues[i] = i == 45 ? 4 : i == 61 ? -5 : i % 4;
    for (DLDataType it : {I32, I64}) {
      TestTensor bad = TestTensor::ints(it, {2, 40}, badValues);
      TestTensor small = randomTensor(F32, {2, 40}, rng);
      Attrs attrs = {int64_t(0), std::string("add"), true};
      TestTensor co(F32, {4, 40}), go(F32, {4, 40});
      EXPECT_EQ(runCuda("graft.scatter_elements", {&data, &bad, &small}, {&go}, attrs),
                runKernel("graft.scatter_elements", {&data, &bad, &small}, {&co}, attrs));
    }
  }
}

} // namespace
} // namespace graft::cuda::test
