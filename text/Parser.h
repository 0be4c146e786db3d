//===- text/Parser.h - TVMScript Relax text to IR ---------------*- C++ -*-===//
//
// Reads the TVMScript Relax text of TVM v0.21-v0.23 (docs/text-format.md):
// one file may hold several modules; a `@R.function` outside a class forms a
// module `Module` holding that one function. Rejects exactly what TVM v0.23's
// parser rejects, with a located DiagnosticError; everything else parses,
// and the verifier judges it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TEXT_PARSER_H
#define GRAFT_TEXT_PARSER_H

#include "ir/Module.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace graft {

/// What one text file holds.
struct ParsedFile {
  std::vector<std::unique_ptr<IRModule>> modules;
  /// `# PIPELINE:`, `# CONFIG:` and `# EXPECT-ERROR:` lines, in order
  /// (pass-test files and reproducers).
  std::string pipeline;
  std::vector<std::string> configs;
  std::string expectError;
  std::shared_ptr<llvm::SourceMgr> sources;

  IRModule *find(llvm::StringRef name) const;
};

/// Parses `text` (named `bufferName` in diagnostics). Errors are
/// DiagnosticErrors located in `sources` of the returned error path: on
/// failure the SourceMgr is returned through `smOut` so the caller can print.
llvm::Expected<ParsedFile> parseText(llvm::StringRef text, llvm::StringRef bufferName,
                                     std::shared_ptr<llvm::SourceMgr> *smOut = nullptr);

/// Reads and parses a file ("-" reads standard input).
llvm::Expected<ParsedFile> parseFile(llvm::StringRef path,
                                     std::shared_ptr<llvm::SourceMgr> *smOut = nullptr);

/// Nesting deeper than this (brackets, if/else, nested functions) is a
/// located "nesting too deep" error: the parser recurses, bounded by it.
inline constexpr unsigned kMaxNestingDepth = 256;

} // namespace graft

#endif // GRAFT_TEXT_PARSER_H
