//===- pass/PassManager.h - Running pipelines with instrumentation -*- C++ -*-===//
//
// Runs a pipeline over a module with the built-in instrumentation of docs/cli.md:
// verify-each (skipped after a pass that reports no change), IR printing
// before/after passes, per-pass timing, statistics, a dump directory, and a
// reproducer written when a pass fails.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PASSMANAGER_H
#define GRAFT_PASS_PASSMANAGER_H

#include "analysis/VerifyCache.h"
#include "ir/Diagnostics.h"
#include "pass/AnalysisManager.h"
#include "pass/Pipeline.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/Timer.h"

#include <deque>
#include <memory>
#include <set>
#include <string>

namespace graft {

struct PassManagerOptions {
  bool verifyEach = true;
  bool printAfterAll = false;
  bool printAfterChange = false;
  std::set<std::string> printBefore; ///< Pass names (kebab or alias).
  std::set<std::string> printAfter;
  bool timing = false;
  /// With `timing`: the group that per-pass timers join, so one report
  /// covers parse, passes and print (the PassManager makes one if null).
  llvm::TimerGroup *timerGroup = nullptr;
  bool stats = false;
  std::string dumpDir;    ///< "" = none; else NNN-<pass>.py per pass.
  std::string reproducer; ///< "" = none; else written on failure.
  /// Compare each pass's change report with the structural hash (on by
  /// default in debug builds).
  bool checkChangeReport =
#ifndef NDEBUG
      true;
#else
      false;
#endif
  llvm::raw_ostream *irStream = nullptr; ///< Where --print-* go (stderr if null).
  /// Shared with the verification of the input (graft opt) so verify-each
  /// skips the struct-info re-inference of nodes a pass left untouched
  /// (docs/performance.md); null: every verification starts afresh.
  VerifyCache *verifyCache = nullptr;
};

/// A failed pipeline. `exitCode` is 2 for a violated precondition or bad
/// option, 1 for IR that verify-each found broken (docs/cli.md).
class PassFailure : public llvm::ErrorInfo<PassFailure> {
public:
  static char ID;
  PassFailure(std::string pass, int exitCode, llvm::SMLoc loc, std::string message,
              std::vector<DiagNote> notes = {})
      : pass(std::move(pass)), exitCode(exitCode), loc(loc), message(std::move(message)),
        notes(std::move(notes)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

  std::string pass;
  int exitCode;
  llvm::SMLoc loc;
  std::string message;
  std::vector<DiagNote> notes;
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions options) : options_(std::move(options)) {}

  /// Runs `pipeline` on `module` in place. When a pass fails, `module` is
  /// handed back as it was given and the error names the pass. Analyses
  /// are shared by the passes of the pipeline (AnalysisManager.h).
  llvm::Error run(IRModule &module, const Pipeline &pipeline, PassContext &ctx);

  /// The analyses of the last run (emptied when it ends; its computation
  /// counters remain).
  const AnalysisManager &analysisManager() const { return analyses_; }

private:
  llvm::Error runOne(IRModule &module, const PassInvocation &inv, unsigned index, PassContext &ctx,
                     AnalysisManager &analyses);
  void writeReproducer(const IRModule &input, const PassInvocation &inv, const PassContext &ctx);
  void dump(const IRModule &module, unsigned index, llvm::StringRef passName);

  PassManagerOptions options_;
  AnalysisManager analyses_;
  // Timers live as long as the manager: LLVM prints a group when its last
  // timer goes, and the report should come once, at the end.
  std::unique_ptr<llvm::TimerGroup> ownTimers_;
  std::deque<llvm::Timer> passTimers_;
};

/// Turns a failure into the located diagnostic the command line prints.
llvm::Error toDiagnostic(const PassFailure &failure);

} // namespace graft

#endif // GRAFT_PASS_PASSMANAGER_H
