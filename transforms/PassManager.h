//===- transforms/PassManager.h - Running pipelines with instrumentation -*- C++ -*-===//
//
// Runs a pipeline over a module with the built-in instrumentation of spec §2:
// verify-each (skipped after a pass that reports no change), IR printing
// before/after passes, per-pass timing, statistics, a dump directory, and a
// reproducer written when a pass fails.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_PASSMANAGER_H
#define GRAFT_TRANSFORMS_PASSMANAGER_H

#include "ir/Diagnostics.h"
#include "transforms/Pipeline.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

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
};

/// A failed pipeline. `exitCode` is 2 for a violated precondition or bad
/// option, 1 for IR that verify-each found broken (spec §2).
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

  /// Runs `pipeline` on `module` in place.
  llvm::Error run(IRModule &module, const Pipeline &pipeline, PassContext &ctx);

private:
  llvm::Error runOne(IRModule &module, const PassInvocation &inv, unsigned index,
                     PassContext &ctx);
  void writeReproducer(const IRModule &input, const PassInvocation &inv,
                       const PassContext &ctx);
  void dump(const IRModule &module, unsigned index, llvm::StringRef passName);

  PassManagerOptions options_;
};

/// Turns a failure into the located diagnostic the command line prints.
llvm::Error toDiagnostic(const PassFailure &failure);

} // namespace graft

#endif // GRAFT_TRANSFORMS_PASSMANAGER_H
