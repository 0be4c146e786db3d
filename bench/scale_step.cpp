//===- bench/scale_step.cpp - One scale step, for instruction counts -------===//
//
// `graft-bench-scale_step STEP BINDINGS [REPEAT]` generates and parses the
// BINDINGS-binding function of bench/ModuleGen.h, then runs STEP (parse,
// verify, print, equal, hash, use-def, walk: a visitor that only reads var
// ids; or a pass by name) REPEAT times inside `runMeasuredStep`, so that
// callgrind counts that step alone, and prints the heap bytes per binding
// that the parsed module holds (the figure that decides which cache level a
// walk of it reads from, independent of load):
//
//   valgrind --tool=callgrind --toggle-collect='*runMeasuredStep*'
//            build/bench/graft-bench-scale_step dead-code-elimination 100000
//
// Instructions that grow more than about 2x from 100k to 200k bindings mean
// an algorithm grows faster than the input; instructions that grow 2x while
// time grows more mean memory (docs/performance.md). Prints the user and system
// CPU time and the page faults per run as well.
//
//===----------------------------------------------------------------------===//

#include "ModuleGen.h"

#include "analysis/UseDef.h"
#include "analysis/WellFormed.h"
#include "ir/NodeMemory.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "pass/Pass.h"
#include "text/Parser.h"
#include "transforms/Passes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <malloc.h>
#include <sys/resource.h>

using namespace graft;

namespace {

[[noreturn]] void die(const std::string &what) {
  llvm::errs() << "scale_step: " << what << "\n";
  std::exit(1);
}

ParsedFile parseOrDie(const std::string &text) {
  auto parsed = parseText(text, "bench.py");
  if (!parsed)
    die("parse failed: " + llvm::toString(parsed.takeError()));
  return std::move(*parsed);
}

struct Times {
  double user = 0, sys = 0;
  long minorFaults = 0;
};

Times now() {
  rusage r;
  getrusage(RUSAGE_SELF, &r);
  auto ms = [](timeval t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return {ms(r.ru_utime), ms(r.ru_stime), r.ru_minflt};
}

/// Bytes malloc has handed out and not had back (in use, headers included).
size_t heapInUse() {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

struct Inputs {
  std::string text;
  ParsedFile a, b;
  const PassInfo *pass = nullptr;
  PassOptions passOptions;
};

} // namespace

// Never inlined: callgrind's --toggle-collect names it.
__attribute__((noinline)) uint64_t runMeasuredStep(llvm::StringRef step, Inputs &in) {
  if (step == "parse")
    return parseOrDie(in.text).modules.size();
  const IRModule &module = *in.a.modules.front();
  if (step == "verify")
    return verifyModule(module).size();
  if (step == "print") {
    std::string out;
    llvm::raw_string_ostream os(out);
    printModule(os, module);
    return os.str().size();
  }
  if (step == "equal")
    return structuralEqual(module, *in.b.modules.front());
  if (step == "hash")
    return structuralHash(module);
  if (step == "walk") {
    struct Counter : ExprVisitor {
      uint64_t n = 0;
      void visitVarUse(const VarNode *v) override { n += v->id; }
      void visitVarDef(const VarNode *v, const BindingNode *) override { n += v->id; }
    } c;
    c.visitExpr(module.entries().front().asFunction());
    return c.n;
  }
  if (step == "use-def")
    return computeUseDef(module.entries().front().asFunction()).vars.size();
  IRModule copy = module;
  std::unique_ptr<Pass> pass = in.pass->create(in.passOptions);
  PassContext ctx;
  llvm::Expected<bool> changed = pass->run(copy, ctx);
  if (!changed)
    die(llvm::toString(changed.takeError()));
  return *changed;
}

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: graft-bench-scale_step STEP BINDINGS [REPEAT]");
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  registerAllPasses();
  llvm::StringRef step = argv[1];
  unsigned bindings = static_cast<unsigned>(std::atoi(argv[2]));
  unsigned repeat = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1;
  Inputs in;
  in.text = bench::generateModule(1, bindings);
  size_t heapBefore = heapInUse(), nodesBefore = nodeMemoryHeld();
  in.a = parseOrDie(in.text);
  double nodeBytes = double(nodeMemoryHeld() - nodesBefore);
  // The parsed file keeps a copy of the text (its SourceMgr) besides the
  // nodes; the nodes are what the walks read.
  double held = double(heapInUse() - heapBefore) + nodeBytes;
  llvm::outs() << llvm::format(
      "module: %.1f heap bytes per binding, %.1f without the source text\n", held / bindings,
      (held - double(in.text.size())) / bindings);
  llvm::outs() << llvm::format("nodes: %.1f bytes of node chunks per binding\n",
                               nodeBytes / bindings);
  if (step == "equal")
    in.b = parseOrDie(in.text);
  static const char *known[] = {"parse", "verify", "print", "equal", "hash", "use-def", "walk"};
  if (std::find(std::begin(known), std::end(known), step) == std::end(known)) {
    in.pass = lookupPass(step);
    if (!in.pass)
      die("unknown step " + step.str());
    auto opts = PassOptions::build(in.pass->name, in.pass->options, {});
    if (!opts)
      die(llvm::toString(opts.takeError()));
    in.passOptions = std::move(*opts);
  }
  uint64_t sink = 0;
  Times t0 = now();
  for (unsigned i = 0; i < repeat; ++i)
    sink += runMeasuredStep(step, in);
  Times t1 = now();
  llvm::outs() << llvm::format(
      "%s %u: user %.2f ms, sys %.2f ms, %.0f page faults per run (%u runs, result %llu)\n",
      step.str().c_str(), bindings, (t1.user - t0.user) / repeat, (t1.sys - t0.sys) / repeat,
      double(t1.minorFaults - t0.minorFaults) / repeat, repeat,
      static_cast<unsigned long long>(sink));
  return 0;
}
