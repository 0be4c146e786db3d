//===- bench/ir_steps.cpp - The steps of `graft print` in a fresh process ---===//
//
// `graft-bench-ir_steps N` generates the N-binding function of
// bench/ModuleGen.h, then parses, verifies and prints it (to /dev/null) once
// each, as `graft print` does, and reports the CPU time of every step. Unlike
// bench/ir_scale.cpp, which repeats each step in one process (warm caches, a
// heap already grown), every step here runs once on fresh memory: the
// linearity bar (200k costs at most 2.3x 100k) holds for both. Run it
// several times and take medians (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "ModuleGen.h"

#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "text/Parser.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <ctime>

using namespace graft;

namespace {

double cpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

} // namespace

int main(int argc, char **argv) {
  unsigned bindings = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 0;
  if (bindings == 0) {
    llvm::errs() << "usage: graft-bench-ir_steps BINDINGS\n";
    return 2;
  }
  std::string text = bench::generateModule(1, bindings);

  double t0 = cpuMs();
  auto parsed = parseText(text, "bench.py");
  double t1 = cpuMs();
  if (!parsed) {
    llvm::errs() << "parse failed: " << llvm::toString(parsed.takeError()) << "\n";
    return 1;
  }
  const IRModule &module = *parsed->modules.front();
  bool wellFormed = verifyModule(module).empty();
  double t2 = cpuMs();
  if (!wellFormed) {
    llvm::errs() << "generated module is not well-formed\n";
    return 1;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os("/dev/null", ec);
  printModule(os, module);
  os.flush();
  double t3 = cpuMs();

  llvm::outs() << llvm::format("bindings %u  parse %.1f ms  verify %.1f ms  print %.1f ms\n",
                               bindings, t1 - t0, t2 - t1, t3 - t2);
  return 0;
}
