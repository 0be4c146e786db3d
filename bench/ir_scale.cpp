//===- bench/ir_scale.cpp - Parse, verify, print, equality at scale ---------===//
//
// The speed bars (docs/performance.md): parse+verify >= 250k bindings/s and print >= 1M
// bindings/s on a 200k-binding function; every step linear (200k costs at
// most 2.3x 100k). Figures: docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "ModuleGen.h"

#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <malloc.h>

using namespace graft;

namespace {

// (functions, bindings per function)
void shapes(benchmark::internal::Benchmark *b) {
  b->Args({1, 100000})->Args({1, 200000})->Args({2000, 100})->Unit(benchmark::kMillisecond);
}

ParsedFile parseOrDie(const std::string &text) {
  auto parsed = parseText(text, "bench.py");
  if (!parsed) {
    llvm::errs() << "bench: parse failed: " << llvm::toString(parsed.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*parsed);
}

void setCounters(benchmark::State &state) {
  double bindings = static_cast<double>(state.range(0) * state.range(1));
  state.counters["bindings/s"] =
      benchmark::Counter(bindings, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ParseVerify(benchmark::State &state) {
  std::string text = bench::generateModule(state.range(0), state.range(1));
  for (auto _ : state) {
    ParsedFile file = parseOrDie(text);
    auto violations = verifyModule(*file.modules.front());
    if (!violations.empty())
      state.SkipWithError(violations.front().message.c_str());
    benchmark::DoNotOptimize(violations);
  }
  setCounters(state);
}
BENCHMARK(BM_ParseVerify)->Apply(shapes);

void BM_Verify(benchmark::State &state) {
  ParsedFile file = parseOrDie(bench::generateModule(state.range(0), state.range(1)));
  for (auto _ : state)
    benchmark::DoNotOptimize(verifyModule(*file.modules.front()));
  setCounters(state);
}
BENCHMARK(BM_Verify)->Apply(shapes);

void BM_Print(benchmark::State &state) {
  ParsedFile file = parseOrDie(bench::generateModule(state.range(0), state.range(1)));
  for (auto _ : state) {
    std::string out;
    llvm::raw_string_ostream os(out);
    printModule(os, *file.modules.front());
    benchmark::DoNotOptimize(os.str().size());
  }
  setCounters(state);
}
BENCHMARK(BM_Print)->Apply(shapes);

void BM_StructuralEqual(benchmark::State &state) {
  std::string text = bench::generateModule(state.range(0), state.range(1));
  ParsedFile a = parseOrDie(text), b = parseOrDie(text);
  for (auto _ : state)
    benchmark::DoNotOptimize(structuralEqual(*a.modules.front(), *b.modules.front()));
  setCounters(state);
}
BENCHMARK(BM_StructuralEqual)->Apply(shapes);

void BM_StructuralHash(benchmark::State &state) {
  ParsedFile a = parseOrDie(bench::generateModule(state.range(0), state.range(1)));
  for (auto _ : state)
    benchmark::DoNotOptimize(structuralHash(*a.modules.front()));
  setCounters(state);
}
BENCHMARK(BM_StructuralHash)->Apply(shapes);

} // namespace

// glibc returns the top of its heap to the kernel once more than its trim
// threshold is free there; the threshold adapts to the largest block freed so
// far. A 200k-binding iteration freed enough (the printer's body buffer, since
// gone, and name tables, the output string) to cross it, so every iteration got its
// memory back from the kernel and page-faulted it in again, which no 100k
// iteration did: `BM_Print` at 200k took about 90k extra page faults over a
// run, and the figure measured the allocator rather than the printer
// (docs/performance.md). Fixed thresholds keep the heap, as a long-running
// process that allocates at this scale would, at every size alike.
int main(int argc, char **argv) {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
