//===- tools/graft/LitSupport.h - split-input-file, verify-diagnostics -*- C++ -*-===//
//
// What graft opt offers lit tests, after mlir-opt: --split-input-file cuts a
// file at `# -----` lines into modules processed one by one, and
// --verify-diagnostics compares the diagnostics a run reports with the
// `# expected-error {{...}}` comments of the file (docs/testing.md).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TOOLS_LITSUPPORT_H
#define GRAFT_TOOLS_LITSUPPORT_H

#include "Driver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace graft::driver {

/// The line that separates splits, at column 1 (trailing blanks allowed).
inline constexpr llvm::StringLiteral kSplitMarker = "# -----";

/// One split of an input file. `text` is preceded by one empty line per
/// line of the file before the split, so diagnostics keep the file's line
/// and column numbers.
struct InputSplit {
  std::string text;
  unsigned firstLine = 1; ///< 1-based, in the file.
  unsigned lastLine = 1;
};

/// Cuts buffer `bufferId` of `sm` at its `# -----` lines. A line that looks
/// like a separator but is not one (indented, other dash counts, trailing
/// words) and a split without code are located errors.
llvm::Expected<std::vector<InputSplit>> splitInput(const llvm::SourceMgr &sm, unsigned bufferId);

/// The whole buffer as one split.
InputSplit wholeInput(const llvm::SourceMgr &sm, unsigned bufferId);

/// One `# expected-error {{TEXT}}` or `# expected-note {{TEXT}}` comment.
struct ExpectedDiagnostic {
  llvm::SourceMgr::DiagKind kind;
  unsigned line = 0; ///< The line it concerns; 0 for `@unknown` (an unlocated one).
  std::string text;  ///< Must occur in the diagnostic's message.
  llvm::SMLoc at;    ///< Where the comment is written.
};

/// The expected diagnostics written in lines [split.firstLine,
/// split.lastLine] of the buffer. Offsets: `@above` (the nearest line of
/// code above without a directive), `@below` (the nearest such line below), `@+N`,
/// `@-N`, `@unknown`. A malformed directive or one pointing outside the
/// split is a located error.
llvm::Expected<std::vector<ExpectedDiagnostic>>
parseExpectedDiagnostics(const llvm::SourceMgr &sm, unsigned bufferId, const InputSplit &split);

/// Matches what was reported against what was expected, one to one. Prints
/// each unexpected diagnostic and each expected one that was not produced as
/// a located error on `os`; true when the two agree.
bool checkDiagnostics(const std::vector<ExpectedDiagnostic> &expected,
                      const std::vector<CapturedDiagnostic> &reported, llvm::SourceMgr &sm,
                      unsigned bufferId, llvm::raw_ostream &os);

/// graft opt with --split-input-file or --verify-diagnostics: each split
/// runs as graft opt runs a file, the outputs printed with `# -----` between
/// them. Without --verify-diagnostics the exit code is the worst of the
/// splits'; with it, 0 when the diagnostics are the expected ones, else 1.
int runOptOnSplits(const OptArgs &args);

} // namespace graft::driver

#endif // GRAFT_TOOLS_LITSUPPORT_H
