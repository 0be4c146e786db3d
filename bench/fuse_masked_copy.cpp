//===- bench/fuse_masked_copy.cpp - fuse-masked-copy and remove-device-asserts -===//
//
// Spec §3/§5: masks built by two separate 10,000-op chains compare equal in
// linear time (bar: well under a second), and both passes are linear in
// module size (200k bindings cost at most 2.3x 100k). Each iteration runs
// the pass on a fresh shallow copy of the parsed module (nodes are
// immutable and shared, so the copy costs a vector of entries); parsing is
// outside the timed region. Figures: docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "MaskChainGen.h"

#include "pass/Pass.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

using namespace graft;

// Benchmarks look passes up by name.
static const bool kPassesRegistered = (registerAllPasses(), true);

namespace {

ParsedFile parseOrDie(const std::string &text) {
  auto parsed = parseText(text, "bench.py");
  if (!parsed) {
    llvm::errs() << "bench: parse failed: " << llvm::toString(parsed.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*parsed);
}

std::unique_ptr<Pass> createPass(llvm::StringRef name) {
  const PassInfo *info = lookupPass(name);
  if (!info) {
    llvm::errs() << "bench: unknown pass " << name << "\n";
    std::exit(1);
  }
  auto options = PassOptions::build(name, info->options, {});
  if (!options) {
    llvm::errs() << "bench: " << llvm::toString(options.takeError()) << "\n";
    std::exit(1);
  }
  return info->create(*options);
}

/// Runs `passName` on copies of `text`'s module; reports bindings/s.
void runPass(benchmark::State &state, const std::string &text, llvm::StringRef passName,
             double bindings, int64_t expectedStat, llvm::StringRef statName) {
  ParsedFile file = parseOrDie(text);
  std::unique_ptr<Pass> pass = createPass(passName);
  for (auto _ : state) {
    state.PauseTiming();
    IRModule copy = *file.modules.front();
    PassContext ctx;
    state.ResumeTiming();
    auto changed = pass->run(copy, ctx);
    if (!changed) {
      state.SkipWithError(llvm::toString(changed.takeError()).c_str());
      break;
    }
    if (ctx.stats().count(statName.str()) == 0 || ctx.stats().at(statName.str()) != expectedStat) {
      state.SkipWithError("unexpected statistic");
      break;
    }
    state.PauseTiming();
    copy = IRModule(); // Release outside the timed region.
    state.ResumeTiming();
  }
  state.counters["bindings"] = bindings;
  state.counters["bindings/s"] =
      benchmark::Counter(bindings, benchmark::Counter::kIsIterationInvariantRate);
}

/// Two masks of range(0) ops each: 2 * range(0) + 3 bindings.
void BM_FuseTwoChains(benchmark::State &state) {
  unsigned length = static_cast<unsigned>(state.range(0));
  runPass(state, bench::maskChainModule(length), "fuse-masked-copy", 2.0 * length + 3, 1,
          "fuse-masked-copy.rewrites");
}
BENCHMARK(BM_FuseTwoChains)->Arg(10000)->Arg(50000)->Arg(100000)->Unit(benchmark::kMillisecond);

/// range(0) masked copies, 5 bindings each.
void BM_FuseManyCopies(benchmark::State &state) {
  unsigned copies = static_cast<unsigned>(state.range(0));
  runPass(state, bench::manyCopiesModule(copies), "fuse-masked-copy", 5.0 * copies + 1, copies,
          "fuse-masked-copy.rewrites");
}
BENCHMARK(BM_FuseManyCopies)->Arg(20000)->Arg(40000)->Unit(benchmark::kMillisecond);

/// range(0) device checks, 4 bindings each (sum, compare, assert, next value).
std::string assertsModule(unsigned checks) {
  std::string out;
  out.reserve(static_cast<size_t>(checks) * 4 * 64 + 512);
  out += "@I.ir_module\nclass Module:\n    @R.function(pure=False)\n"
         "    def main(x: R.Tensor((4, 8), dtype=\"float32\")) -> R.Tensor((4, 8), "
         "dtype=\"float32\"):\n";
  out += "        v0 = x\n";
  for (unsigned i = 0; i < checks; ++i) {
    std::string k = std::to_string(i);
    out += "        s" + k + " = R.sum(v" + k + ")\n";
    out += "        c" + k + " = R.greater(s" + k + ", R.const(0.0, \"float32\"))\n";
    out += "        a" + k + " = R.assert_op(c" + k + ", format=\"positive\")\n";
    out += "        v" + std::to_string(i + 1) + " = R.abs(v" + k + ")\n";
  }
  out += "        return v" + std::to_string(checks) + "\n";
  return out;
}

void BM_RemoveDeviceAsserts(benchmark::State &state) {
  unsigned checks = static_cast<unsigned>(state.range(0));
  runPass(state, assertsModule(checks), "remove-device-asserts", 4.0 * checks + 1, checks,
          "remove-device-asserts.removed");
}
BENCHMARK(BM_RemoveDeviceAsserts)->Arg(25000)->Arg(50000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
