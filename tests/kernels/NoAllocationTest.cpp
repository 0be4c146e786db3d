//===- tests/kernels/NoAllocationTest.cpp - Kernels use only the workspace -===//
//
// Kernel.h promises that a kernel takes scratch memory only from the
// caller's workspace. This test binary replaces the global operator new to
// count allocations while a kernel runs; the tensors, attrs and workspace
// are all made before counting starts.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "kernels/FusedKernel.h"
#include "kernels/cpu/ElementwiseOps.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> counting{false};
std::atomic<int> allocations{0};

void *allocate(std::size_t n) {
  if (counting.load(std::memory_order_relaxed))
    allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
// Out of line so that GCC does not pair an inlined free() with a new
// expression (-Wmismatched-new-delete).
[[gnu::noinline]] void deallocate(void *p) noexcept { std::free(p); }
} // namespace

void *operator new(std::size_t n) {
  if (void *p = allocate(n))
    return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t n) { return operator new(n); }
void *operator new(std::size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void operator delete(void *p) noexcept { deallocate(p); }
void operator delete[](void *p) noexcept { deallocate(p); }
void operator delete(void *p, std::size_t) noexcept { deallocate(p); }
void operator delete[](void *p, std::size_t) noexcept { deallocate(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { deallocate(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { deallocate(p); }

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

/// Runs `symbol` successfully and returns how many allocations it made.
int allocationsOf(llvm::StringRef symbol, std::vector<TestTensor *> inputs,
                  std::vector<TestTensor *> outputs, std::vector<AttrValue> attrs = {}) {
  const KernelInfo *k = lookupKernel(symbol);
  EXPECT_NE(k, nullptr) << symbol.str();
  if (!k)
    return -1;
  std::vector<DLTensor *> in, out;
  for (TestTensor *t : inputs)
    in.push_back(t->dl());
  for (TestTensor *t : outputs)
    out.push_back(t->dl());
  KernelArgs args{in, out, attrs, {}};
  std::vector<uint8_t> ws;
  if (k->workspaceBytes) {
    ws.resize(k->workspaceBytes(args));
    args.workspace = {ws.data(), ws.size()};
  }
  allocations = 0;
  counting = true;
  llvm::Error err = k->fn(args);
  counting = false;
  EXPECT_FALSE(bool(err)) << symbol.str() << ": " << llvm::toString(std::move(err));
  return allocations;
}

TEST(NoAllocation, CountingSeesAnAllocation) {
  allocations = 0;
  counting = true;
  auto *p = new std::vector<int>(100);
  counting = false;
  delete p;
  EXPECT_EQ(allocations, 2); // The vector object and its buffer.
}

TEST(NoAllocation, UniqueUsesTheWorkspace) {
  std::vector<double> v(4096);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = double((i * 7919) % 1000);
  TestTensor x(F32, {2048, 2}, v), n(I64, {}), rows(F32, {500, 2}), inv(I64, {2048});
  EXPECT_EQ(allocationsOf("graft.host.unique_count", {&x}, {&n}, {AttrValue()}), 0);
  EXPECT_EQ(n.intValues(), (std::vector<int64_t>{1000}));
  TestTensor vals(F32, {1000}), cnt(I64, {1000});
  EXPECT_EQ(allocationsOf("graft.host.unique", {&x}, {&vals, &cnt},
                          {false, false, false, true, AttrValue()}),
            0);
  EXPECT_EQ(allocationsOf("graft.host.unique_count", {&x}, {&n}, {int64_t(0)}), 0);
  EXPECT_EQ(n.intValues(), (std::vector<int64_t>{500})); // Each row's second value follows.
  EXPECT_EQ(allocationsOf("graft.host.unique", {&x}, {&rows, &inv},
                          {true, false, true, false, int64_t(0)}),
            0);
}

TEST(NoAllocation, SortAndArgsortUseTheWorkspace) {
  // Long rows: std::stable_sort would take a temporary buffer here.
  std::vector<double> v(4096);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = double((i * 7919) % 1000);
  TestTensor x(F32, {2, 2048}, v), s(F32, {2, 2048}), i(I64, {2, 2048});
  EXPECT_EQ(allocationsOf("graft.sort", {&x}, {&s}, {int64_t(-1), false}), 0);
  EXPECT_EQ(allocationsOf("graft.argsort", {&x}, {&i}, {int64_t(1), true}), 0);
  // Still stable: equal values keep their input order.
  auto idx = i.intValues();
  for (size_t k = 1; k < 2048; ++k) {
    if (v[size_t(idx[k])] == v[size_t(idx[k - 1])]) {
      EXPECT_LT(idx[k - 1], idx[k]) << "at " << k;
    }
  }
}

TEST(NoAllocation, TopKEinsumQuantizeAndMovement) {
  std::vector<double> v(4096);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = double((i * 7919) % 1000);
  TestTensor x(F32, {2, 2048}, v), tv(F32, {2, 16}), ti(I64, {2, 16});
  EXPECT_EQ(allocationsOf("graft.topk", {&x}, {&tv, &ti},
                          {int64_t(16), int64_t(-1), std::string("both"), true}),
            0);
  TestTensor a(F32, {4, 3}), b(F32, {3, 4}), m(F32, {4, 4}), s(F32, {}, {0.5}), z(I8, {}),
      q(I8, {4, 3}), r(F32, {4, 6}), t(F32, {8, 3}), f(F32, {4, 3}), e(F32, {4, 4});
  EXPECT_EQ(allocationsOf("graft.einsum", {&a, &b, &m}, {&e}, {std::string("ij,jk,kl->il")}), 0);
  EXPECT_EQ(allocationsOf("graft.quantize", {&a, &s, &z}, {&q}, {int64_t(1)}), 0);
  EXPECT_EQ(allocationsOf("graft.dequantize", {&q, &s, &z}, {&a}, {int64_t(1)}), 0);
  EXPECT_EQ(allocationsOf("graft.repeat", {&a}, {&r}, {int64_t(2), int64_t(1)}), 0);
  EXPECT_EQ(allocationsOf("graft.tile", {&a}, {&t}, {Ints{2, 1}}), 0);
  EXPECT_EQ(allocationsOf("graft.flip", {&a}, {&f}, {int64_t(0)}), 0);
}

TEST(NoAllocation, ElementwiseReduceLayoutAndNN) {
  TestTensor a(F32, {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}), b(F32, {3}, {1, 2, 3});
  TestTensor o(F32, {4, 3}), c(BOOL, {4, 3}), t(F32, {3, 4}), r(F32, {4}), m(F32, {4, 4});
  TestTensor fill(F32, {}, {7});
  EXPECT_EQ(allocationsOf("graft.add", {&a, &b}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.exp", {&a}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.less", {&a, &b}, {&c}), 0);
  EXPECT_EQ(allocationsOf("graft.where", {&c, &a, &b}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.full_like", {&a, &fill}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.sum", {&a}, {&r}, {Ints{1}, false}), 0);
  EXPECT_EQ(allocationsOf("graft.permute_dims", {&a}, {&t}, {Ints{1, 0}}), 0);
  EXPECT_EQ(allocationsOf("graft.matmul", {&a, &t}, {&m}), 0);
  EXPECT_EQ(allocationsOf("graft.nn.softmax", {&a}, {&o}, {int64_t(-1)}), 0);
}

TEST(NoAllocation, EveryRowOfTheElementwiseTable) {
  using cpu::elementwise::DTypeRule;
  TestTensor fa(F32, {4, 3}), fb(F32, {3}), ia(I32, {4, 3}), ib(I32, {3});
  TestTensor fo(F32, {4, 3}), io(I32, {4, 3}), bo(BOOL, {4, 3});
  for (const cpu::elementwise::RowInfo &row : cpu::elementwise::kRows) {
    bool ints = row.rule == DTypeRule::Int || row.rule == DTypeRule::IntOrBool;
    TestTensor *a = ints ? &ia : &fa, *b = ints ? &ib : &fb;
    TestTensor *o = cpu::elementwise::hasBoolResult(row.rule) ? &bo : ints ? &io : &fo;
    std::vector<TestTensor *> in{a};
    if (row.arity == 2)
      in.push_back(b);
    EXPECT_EQ(allocationsOf(row.symbol, in, {o}), 0) << row.symbol;
  }
}

TEST(NoAllocation, CreationAndTheOtherElementwiseKernels) {
  TestTensor a(F32, {4, 3}), o(F32, {4, 3}), r(F32, {12}), fill(I32, {}, {7});
  TestTensor c(BOOL, {4, 3}), n(I64, {});
  EXPECT_EQ(allocationsOf("graft.zeros", {}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.ones", {}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.full", {&fill}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.zeros_like", {&a}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.ones_like", {&a}, {&o}), 0);
  EXPECT_EQ(allocationsOf("graft.arange", {}, {&r}, {int64_t(1), int64_t(2)}), 0);
  EXPECT_EQ(allocationsOf("graft.size", {&a}, {&n}), 0);
  EXPECT_EQ(allocationsOf("graft.astype", {&a}, {&c}), 0);
  EXPECT_EQ(allocationsOf("graft.clip", {&a}, {&o}, {0.0, 1.0}), 0);
}

TEST(NoAllocation, FusedProgramUsesTheWorkspace) {
  // A broadcast input, an immediate, a bool operand converted for where,
  // and a transposed output.
  auto program = parseFusedProgram("fused 2\ninput %0 float32 2\ninput %1 float32 1\n"
                                   "const %2 float32 0.5\n%3 = add float32 %0 %1\n"
                                   "%4 = multiply float32 %3 %2\n%5 = less bool %4 %1\n"
                                   "%6 = where float32 %5 %4 %1\noutput %6\n");
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  TestTensor a(F32, {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}), b(F32, {3}, {1, 2, 3});
  TestTensor o(F32, {4, 3}, {}, {1, 0});
  std::vector<DLTensor *> in{a.dl(), b.dl()}, out{o.dl()};
  KernelArgs args{in, out, {}, {}};
  std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
  args.workspace = {ws.data(), ws.size()};
  allocations = 0;
  counting = true;
  llvm::Error err = runFusedProgram(**program, args, "graft.fused.test");
  counting = false;
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(allocations, 0);
  // (a + b) * 0.5 < b never holds here, so where takes b everywhere.
  EXPECT_EQ(o.values(), (std::vector<double>{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}));
}

} // namespace
