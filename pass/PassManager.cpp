//===- pass/PassManager.cpp -----------------------------------------------===//

#include "pass/PassManager.h"

#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"

using namespace graft;

char PassFailure::ID = 0;

namespace {

bool named(const std::set<std::string> &names, const PassInfo &info) {
  return names.count(info.name) || (!info.alias.empty() && names.count(info.alias));
}

void printIR(llvm::raw_ostream &os, llvm::StringRef banner, const IRModule &module) {
  os << "// -----// IR " << banner << " //----- //\n";
  printModule(os, module);
  os << "\n";
}

/// The first violation (root cause first) as the culprit report of docs/cli.md.
llvm::Error brokenIR(const PassInvocation &inv, const IRModule &module,
                     const std::vector<Violation> &violations) {
  const Violation &v = violations.front();
  std::vector<DiagNote> notes = v.notes;
  if (const ModuleEntry *entry = module.lookup(v.function))
    if (const FunctionNode *fn = entry->asFunction()) {
      PrintOptions opts;
      opts.highlight = v.binding;
      opts.header = false;
      std::string text;
      llvm::raw_string_ostream os(text);
      printFunction(os, *fn, v.function, &module, opts);
      notes.push_back(
          {llvm::SMLoc(), "function '" + v.function + "' after the pass:\n" + os.str()});
    }
  if (violations.size() > 1)
    notes.push_back({llvm::SMLoc(), llvm::formatv("{0} more violation(s) follow from this pass",
                                                  violations.size() - 1)
                                        .str()});
  return llvm::make_error<PassFailure>(
      inv.info->name, 1, v.loc,
      "IR is not well-formed after pass '" + inv.info->name + "': " + v.message, std::move(notes));
}

} // namespace

llvm::Error PassManager::run(IRModule &module, const Pipeline &pipeline, PassContext &ctx) {
  // What a failing pipeline hands back (a shallow copy: nodes are shared).
  IRModule input = module;
  for (unsigned i = 0; i < pipeline.passes.size(); ++i)
    if (llvm::Error err = runOne(module, pipeline.passes[i], i + 1, ctx, analyses_)) {
      analyses_.clear();
      module = std::move(input);
      return err;
    }
  analyses_.clear();
  if (options_.stats)
    for (const auto &[name, value] : ctx.stats())
      llvm::errs() << name << " = " << value << "\n";
  return llvm::Error::success();
}

llvm::Error PassManager::runOne(IRModule &module, const PassInvocation &inv, unsigned index,
                                PassContext &ctx, AnalysisManager &analyses) {
  llvm::raw_ostream &irOut = options_.irStream ? *options_.irStream : llvm::errs();
  const PassInfo &info = *inv.info;
  if (options_.printBefore.size() && named(options_.printBefore, info))
    printIR(irOut, "Before " + info.name, module);

  // Keep the pass's input for the reproducer, the change-report check and
  // invalidation (a shallow copy: nodes are shared).
  IRModule input = module;
  uint64_t hashBefore = options_.checkChangeReport ? structuralHash(module) : 0;

  llvm::Timer *timer = nullptr;
  if (options_.timing) {
    if (!options_.timerGroup) {
      ownTimers_ = std::make_unique<llvm::TimerGroup>("graft", "graft pass execution timing");
      options_.timerGroup = ownTimers_.get();
    }
    timer = &passTimers_.emplace_back(info.name, info.name, *options_.timerGroup);
  }
  std::unique_ptr<Pass> pass = info.create(inv.values);
  pass->setAnalysisManager(&analyses);
  llvm::Expected<bool> changed = [&] {
    llvm::TimeRegion region(timer);
    return pass->run(module, ctx);
  }();
  if (!changed) {
    writeReproducer(input, inv, ctx);
    // A pass's located error (a call it cannot lower) keeps its location.
    return llvm::handleErrors(
        changed.takeError(),
        [&](const DiagnosticError &d) {
          return llvm::make_error<PassFailure>(info.name, 2, d.loc, d.message, d.notes);
        },
        [&](const llvm::ErrorInfoBase &e) {
          return llvm::make_error<PassFailure>(info.name, 2, llvm::SMLoc(), e.message());
        });
  }
  if (options_.checkChangeReport && !*changed && structuralHash(module) != hashBefore) {
    writeReproducer(input, inv, ctx);
    return llvm::make_error<PassFailure>(info.name, 1, llvm::SMLoc(),
                                         "pass '" + info.name +
                                             "' changed the IR but reported no change");
  }
  if (*changed)
    analyses.invalidate(input, module, pass->preserved());
  if (options_.verifyEach && *changed) {
    std::vector<Violation> violations = verifyModule(module, VerifyOptions(), options_.verifyCache);
    if (!violations.empty()) {
      writeReproducer(input, inv, ctx);
      return brokenIR(inv, module, violations);
    }
  }
  if (options_.printAfterAll || (options_.printAfterChange && *changed) ||
      named(options_.printAfter, info))
    printIR(irOut, "After " + info.name, module);
  if (!options_.dumpDir.empty())
    dump(module, index, info.name);
  return llvm::Error::success();
}

void PassManager::writeReproducer(const IRModule &input, const PassInvocation &inv,
                                  const PassContext &ctx) {
  if (options_.reproducer.empty())
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(options_.reproducer, ec);
  if (ec) {
    llvm::errs() << "graft: warning: cannot write reproducer " << options_.reproducer << ": "
                 << ec.message() << "\n";
    return;
  }
  os << "# Reproducer: the input of the failing pass. Replay with `graft opt "
     << llvm::sys::path::filename(options_.reproducer) << "`.\n";
  os << "# PIPELINE: " << invocationStr(inv) << "\n";
  for (const auto &[key, value] : ctx.config)
    os << "# CONFIG: " << key << "=" << value << "\n";
  IRModule named = input;
  named.name = "Before";
  printModule(os, named);
  llvm::errs() << "graft: note: reproducer written to " << options_.reproducer << "\n";
}

void PassManager::dump(const IRModule &module, unsigned index, llvm::StringRef passName) {
  if (std::error_code ec = llvm::sys::fs::create_directories(options_.dumpDir)) {
    llvm::errs() << "graft: warning: cannot create " << options_.dumpDir << ": " << ec.message()
                 << "\n";
    return;
  }
  llvm::SmallString<128> path(options_.dumpDir);
  llvm::sys::path::append(path, llvm::formatv("{0:d3}-{1}.py", index, passName).str());
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    printModule(os, module);
}

llvm::Error graft::toDiagnostic(const PassFailure &failure) {
  return diagError(failure.loc, failure.message, failure.notes);
}
