//===- bench/fused_elementwise.cpp - Fused against unfused elementwise chains ===//
//
// The fusion speed bar of docs/performance.md: a chain of 6 elementwise ops
// over 16M float32 elements runs at least 2x faster fused than op by op,
// and the fused kernel reaches at least 50% of the memcpy bandwidth
// measured in the same run. All three run in one process on the same
// buffers; each reports `bytes_per_second` for the bytes it must move:
//
//  - BM_Memcpy: one 64 MiB copy (64 MiB read + 64 MiB written);
//  - BM_Unfused6: the six kernels one by one (graft.add, ...), into
//    preallocated intermediates (the best case for the unfused chain: no
//    allocation), counting the fused chain's bytes so the rates compare;
//  - BM_Fused6: the same chain as one fused program (x and y read once, the
//    result written once: 192 MiB).
//
// Injective ops in a group, on the same buffers seen as 4096 x 4096, each
// rated by the same 192 MiB: BM_UnfusedPermute3 / BM_FusedPermute3
// (exp(permute_dims(x) + y): the strided-view walk) and BM_UnfusedTake2 /
// BM_FusedTake2 (take(x, ids, axis 0) * y, ids reversing the rows: the
// walk that computes coordinates per element).
//
//===----------------------------------------------------------------------===//

#include "kernels/FusedKernel.h"
#include "kernels/Kernel.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace graft::kernels;

namespace {

constexpr int64_t kElems = int64_t(1) << 24; // 16M
constexpr int64_t kBytes = kElems * 4;

struct Buffer {
  std::vector<float> data;
  int64_t shape[1] = {kElems};
  DLTensor t{};
  explicit Buffer(float seed) : data(size_t(kElems)) {
    for (int64_t i = 0; i < kElems; ++i)
      data[size_t(i)] = seed + float(i % 1000) * 0.001f - 0.5f;
    t.data = data.data();
    t.device = {kDLCPU, 0};
    t.ndim = 1;
    t.dtype = {kDLFloat, 32, 1};
    t.shape = shape;
  }
};

struct Fixture {
  Buffer x{1.0f}, y{-0.25f}, out{0.0f};
  std::vector<Buffer *> tmp;
  Fixture() {
    for (int i = 0; i < 5; ++i)
      tmp.push_back(new Buffer(0.0f));
  }
  ~Fixture() {
    for (Buffer *b : tmp)
      delete b;
  }
};

Fixture &fixture() {
  static Fixture f;
  return f;
}

// a = x + y; b = a * x; c = b - y; d = max(c, x); e = min(d, y); out = abs(e)
constexpr const char *kProgram = "fused 2\n"
                                 "input %0 float32 1\n"
                                 "input %1 float32 1\n"
                                 "%2 = add float32 %0 %1\n"
                                 "%3 = multiply float32 %2 %0\n"
                                 "%4 = subtract float32 %3 %1\n"
                                 "%5 = maximum float32 %4 %0\n"
                                 "%6 = minimum float32 %5 %1\n"
                                 "%7 = abs float32 %6\n"
                                 "output %7\n";

void fail(benchmark::State &state, llvm::Error err) {
  state.SkipWithError(llvm::toString(std::move(err)).c_str());
}

void BM_Memcpy(benchmark::State &state) {
  Fixture &f = fixture();
  for (auto _ : state) {
    std::memcpy(f.out.data.data(), f.x.data.data(), size_t(kBytes));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Unfused6(benchmark::State &state) {
  Fixture &f = fixture();
  struct Step {
    const char *symbol;
    DLTensor *a, *b, *out;
  };
  const Step steps[] = {
      {"graft.add", &f.x.t, &f.y.t, &f.tmp[0]->t},
      {"graft.multiply", &f.tmp[0]->t, &f.x.t, &f.tmp[1]->t},
      {"graft.subtract", &f.tmp[1]->t, &f.y.t, &f.tmp[2]->t},
      {"graft.maximum", &f.tmp[2]->t, &f.x.t, &f.tmp[3]->t},
      {"graft.minimum", &f.tmp[3]->t, &f.y.t, &f.tmp[4]->t},
      {"graft.abs", &f.tmp[4]->t, nullptr, &f.out.t},
  };
  for (auto _ : state) {
    for (const Step &s : steps) {
      const KernelInfo *k = lookupKernel(s.symbol);
      DLTensor *in[2] = {s.a, s.b};
      DLTensor *out[1] = {s.out};
      KernelArgs args{llvm::ArrayRef<DLTensor *>(in, s.b ? 2 : 1), out, {}, {}};
      if (llvm::Error err = k->fn(args))
        return fail(state, std::move(err));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}
BENCHMARK(BM_Unfused6)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Fused6(benchmark::State &state) {
  Fixture &f = fixture();
  auto program = parseFusedProgram(kProgram);
  if (!program)
    return fail(state, program.takeError());
  DLTensor *in[2] = {&f.x.t, &f.y.t};
  DLTensor *out[1] = {&f.out.t};
  KernelArgs args{in, out, {}, {}};
  std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
  args.workspace = {ws.data(), ws.size()};
  for (auto _ : state) {
    if (llvm::Error err = runFusedProgram(**program, args, "graft.fused.bench"))
      return fail(state, std::move(err));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}
BENCHMARK(BM_Fused6)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The fixture's buffers as 4096 x 4096 matrices.
struct Square {
  int64_t shape[2] = {4096, 4096};
  int64_t idsShape[1] = {4096};
  std::vector<int64_t> ids;
  DLTensor x{}, y{}, out{}, tmp0{}, tmp1{}, idx{};
  Square() {
    Fixture &f = fixture();
    for (auto [t, b] : {std::pair<DLTensor *, Buffer *>{&x, &f.x},
                        {&y, &f.y},
                        {&out, &f.out},
                        {&tmp0, f.tmp[0]},
                        {&tmp1, f.tmp[1]}}) {
      *t = b->t;
      t->ndim = 2;
      t->shape = shape;
    }
    for (int64_t i = 0; i < 4096; ++i)
      ids.push_back(4095 - i);
    idx.data = ids.data();
    idx.device = {kDLCPU, 0};
    idx.ndim = 1;
    idx.dtype = {kDLInt, 64, 1};
    idx.shape = idsShape;
  }
};

Square &square() {
  static Square s;
  return s;
}

/// Runs `symbol` on `in` into `out` with `attrs`.
llvm::Error runKernel(const char *symbol, std::vector<DLTensor *> in, DLTensor *out,
                      std::vector<AttrValue> attrs = {}) {
  const KernelInfo *k = lookupKernel(symbol);
  DLTensor *outs[1] = {out};
  KernelArgs args{in, outs, attrs, {}};
  return k->fn(args);
}

void runProgramBench(benchmark::State &state, const char *text, std::vector<DLTensor *> in,
                     DLTensor *out) {
  auto program = parseFusedProgram(text);
  if (!program)
    return fail(state, program.takeError());
  DLTensor *outs[1] = {out};
  KernelArgs args{in, outs, {}, {}};
  std::vector<char> ws(fusedProgramWorkspaceBytes(**program, args));
  args.workspace = {ws.data(), ws.size()};
  for (auto _ : state) {
    if (llvm::Error err = runFusedProgram(**program, args, "graft.fused.bench"))
      return fail(state, std::move(err));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}

void BM_UnfusedPermute3(benchmark::State &state) {
  Square &q = square();
  for (auto _ : state) {
    llvm::Error err =
        runKernel("graft.permute_dims", {&q.x}, &q.tmp0, {std::vector<int64_t>{1, 0}});
    if (!err)
      err = runKernel("graft.add", {&q.tmp0, &q.y}, &q.tmp1);
    if (!err)
      err = runKernel("graft.exp", {&q.tmp1}, &q.out);
    if (err)
      return fail(state, std::move(err));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}
BENCHMARK(BM_UnfusedPermute3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FusedPermute3(benchmark::State &state) {
  Square &q = square();
  runProgramBench(state,
                  "fused 2\ninput %0 float32 2\ninput %1 float32 2\n"
                  "%2 = permute_dims float32 %0 axes=1,0\n%3 = add float32 %2 %1\n"
                  "%4 = exp float32 %3\noutput %4\n",
                  {&q.x, &q.y}, &q.out);
}
BENCHMARK(BM_FusedPermute3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_UnfusedTake2(benchmark::State &state) {
  Square &q = square();
  for (auto _ : state) {
    llvm::Error err =
        runKernel("graft.take", {&q.x, &q.idx}, &q.tmp0, {int64_t(0), std::string("fast")});
    if (!err)
      err = runKernel("graft.multiply", {&q.tmp0, &q.y}, &q.out);
    if (err)
      return fail(state, std::move(err));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBytes);
}
BENCHMARK(BM_UnfusedTake2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FusedTake2(benchmark::State &state) {
  Square &q = square();
  runProgramBench(state,
                  "fused 2\ninput %0 float32 2\ninput %1 int64 1\ninput %2 float32 2\n"
                  "%3 = take float32 %0 %1 axis=0 mode=fast\n%4 = multiply float32 %3 %2\n"
                  "output %4\n",
                  {&q.x, &q.idx, &q.y}, &q.out);
}
BENCHMARK(BM_FusedTake2)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
