//===- ir/Diagnostics.h - Located error reporting ---------------*- C++ -*-===//
//
// Every user-facing error of graft is `FILE:LINE:COL: error: MESSAGE`, the
// source line with a caret, then `note:` lines (docs/cli.md). Errors travel as
// llvm::Error (a DiagnosticError carries the location and notes) and are
// printed once, at the command line, through llvm::SourceMgr.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_DIAGNOSTICS_H
#define GRAFT_IR_DIAGNOSTICS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <utility>
#include <vector>

namespace graft {

struct DiagNote {
  llvm::SMLoc loc; ///< May be invalid: an unlocated note.
  std::string message;
};

/// An error at a source location, with notes. The location may be invalid
/// for IR built through the C++ API; the message then names the function and
/// binding itself.
class DiagnosticError : public llvm::ErrorInfo<DiagnosticError> {
public:
  static char ID;
  DiagnosticError(llvm::SMLoc loc, std::string message, std::vector<DiagNote> notes = {})
      : loc(loc), message(std::move(message)), notes(std::move(notes)) {}

  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

  llvm::SMLoc loc;
  std::string message;
  std::vector<DiagNote> notes;
};

inline llvm::Error diagError(llvm::SMLoc loc, const llvm::Twine &message,
                             std::vector<DiagNote> notes = {}) {
  return llvm::make_error<DiagnosticError>(loc, message.str(), std::move(notes));
}

/// Prints an error: a DiagnosticError through `sm` (with caret) when its
/// location is valid, anything else as `graft: error: MESSAGE`.
void printError(llvm::Error err, const llvm::SourceMgr *sm, llvm::raw_ostream &os);

/// Prints one located diagnostic with notes.
void printDiagnostic(const llvm::SourceMgr *sm, const DiagnosticError &diag, llvm::raw_ostream &os);

} // namespace graft

#endif // GRAFT_IR_DIAGNOSTICS_H
