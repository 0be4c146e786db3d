//===- ir/Diagnostics.cpp - Located error reporting ------------------------===//

#include "ir/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;

char DiagnosticError::ID = 0;

void graft::printDiagnostic(const llvm::SourceMgr *sm, const DiagnosticError &diag,
                            llvm::raw_ostream &os) {
  auto printOne = [&](llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const std::string &msg) {
    if (sm && loc.isValid() && sm->FindBufferContainingLoc(loc) != 0)
      sm->PrintMessage(os, loc, kind, msg);
    else
      os << "graft: " << (kind == llvm::SourceMgr::DK_Note ? "note: " : "error: ") << msg << "\n";
  };
  printOne(diag.loc, llvm::SourceMgr::DK_Error, diag.message);
  for (const DiagNote &note : diag.notes)
    printOne(note.loc, llvm::SourceMgr::DK_Note, note.message);
}

void graft::printError(llvm::Error err, const llvm::SourceMgr *sm, llvm::raw_ostream &os) {
  llvm::handleAllErrors(
      std::move(err), [&](const DiagnosticError &diag) { printDiagnostic(sm, diag, os); },
      [&](const llvm::ErrorInfoBase &info) { os << "graft: error: " << info.message() << "\n"; });
}
