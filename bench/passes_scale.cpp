//===- bench/passes_scale.cpp - Passes and verify-each at scale -------------===//
//
// The speed bars (docs/performance.md) for passes: every pass and the verifier are linear (a
// 200k-binding function costs at most 2.3x a 100k one), and verify-each adds
// under 15% to `canonicalize-bindings,dead-code-elimination` on a 200k-binding
// function, parse and print included. Figures: docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "ModuleGen.h"

#include "analysis/VerifyCache.h"
#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "pass/Pass.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <malloc.h>

using namespace graft;

// Benchmarks look passes up by name.
static const bool kPassesRegistered = (registerAllPasses(), true);

namespace {

void sizes(benchmark::internal::Benchmark *b) {
  b->Arg(100000)->Arg(200000)->Unit(benchmark::kMillisecond);
}

[[noreturn]] void die(const std::string &what) {
  llvm::errs() << "bench: " << what << "\n";
  std::exit(1);
}

ParsedFile parseOrDie(const std::string &text) {
  auto parsed = parseText(text, "bench.py");
  if (!parsed)
    die("parse failed: " + llvm::toString(parsed.takeError()));
  return std::move(*parsed);
}

Pipeline pipelineOrDie(llvm::StringRef text) {
  auto p = parsePipeline(text);
  if (!p)
    die("bad pipeline: " + llvm::toString(p.takeError()));
  return std::move(*p);
}

void setCounters(benchmark::State &state) {
  state.counters["bindings/s"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

/// One pass alone on a parsed module; each iteration starts from the same
/// input (a shallow copy: nodes are immutable and shared).
void runPass(benchmark::State &state, llvm::StringRef passName) {
  ParsedFile file = parseOrDie(bench::generateModule(1, state.range(0)));
  const PassInfo *info = lookupPass(passName);
  if (!info)
    die("unknown pass " + passName.str());
  auto opts = PassOptions::build(info->name, info->options, {});
  if (!opts)
    die(llvm::toString(opts.takeError()));
  for (auto _ : state) {
    state.PauseTiming();
    IRModule module = *file.modules.front();
    std::unique_ptr<Pass> pass = info->create(*opts);
    PassContext ctx;
    state.ResumeTiming();
    llvm::Expected<bool> changed = pass->run(module, ctx);
    if (!changed)
      die(llvm::toString(changed.takeError()));
    benchmark::DoNotOptimize(*changed);
    state.PauseTiming();
    module = IRModule(); // Freeing the output is not the pass's cost.
    state.ResumeTiming();
  }
  setCounters(state);
}

void BM_CanonicalizeBindings(benchmark::State &state) { runPass(state, "canonicalize-bindings"); }
BENCHMARK(BM_CanonicalizeBindings)->Apply(sizes);

void BM_DeadCodeElimination(benchmark::State &state) { runPass(state, "dead-code-elimination"); }
BENCHMARK(BM_DeadCodeElimination)->Apply(sizes);

void BM_Verify(benchmark::State &state) {
  ParsedFile file = parseOrDie(bench::generateModule(1, state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(verifyModule(*file.modules.front()));
  setCounters(state);
}
BENCHMARK(BM_Verify)->Apply(sizes);

/// What `graft opt -p canonicalize-bindings,dead-code-elimination` does:
/// parse, verify the input, run the pipeline (verify-each on or off), print.
void BM_OptPipeline(benchmark::State &state) {
  std::string text = bench::generateModule(1, state.range(0));
  Pipeline pipeline = pipelineOrDie("canonicalize-bindings,dead-code-elimination");
  PassManagerOptions options;
  options.verifyEach = state.range(1) != 0;
  options.checkChangeReport = false;
  for (auto _ : state) {
    ParsedFile file = parseOrDie(text);
    IRModule &module = *file.modules.front();
    // As graft opt: verify-each shares the input verification's cache.
    VerifyCache cache;
    if (!verifyModule(module, VerifyOptions(), &cache).empty())
      die("generated module is not well-formed");
    options.verifyCache = &cache;
    PassManager pm(options);
    PassContext ctx;
    if (llvm::Error err = pm.run(module, pipeline, ctx))
      die(llvm::toString(std::move(err)));
    std::string out;
    llvm::raw_string_ostream os(out);
    printModule(os, module);
    benchmark::DoNotOptimize(os.str().size());
  }
  setCounters(state);
}
BENCHMARK(BM_OptPipeline)
    ->ArgNames({"bindings", "verify_each"})
    ->Args({200000, 0})
    ->Args({200000, 1})
    ->Unit(benchmark::kMillisecond);

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
