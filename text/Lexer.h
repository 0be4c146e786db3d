//===- text/Lexer.h - Python-shaped tokens for TVMScript --------*- C++ -*-===//
//
// Turns TVMScript text into a flat token array: names, numbers, strings,
// punctuation, and the NEWLINE/INDENT/DEDENT tokens of Python's layout rule
// (implicit line joining inside brackets). Comments are dropped except the
// pass-test directive lines (`# PIPELINE:`, `# CONFIG:`, `# EXPECT-ERROR:`),
// which are collected. Tokens are 8 bytes and point into the buffer: values
// (numbers, string contents) are decoded on demand by the parser.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TEXT_LEXER_H
#define GRAFT_TEXT_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graft {

enum class Tok : uint8_t {
  Eof,
  Newline,
  Indent,
  Dedent,
  Name,
  Int,
  Float,
  String,
  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Dot,
  Semi,
  At,
  Arrow,
  Assign,
  Plus,
  Minus,
  Star,
  Slash,
  DoubleSlash,
  Percent,
  DoubleStar,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  EqEq,
  NotEq,
  Tilde,
  Amp,
  Pipe,
  Caret,
  ShiftL,
  ShiftR,
  PlusAssign,
  MinusAssign,
  StarAssign,
  SlashAssign,
};

/// One token: where it is and what it is. Eight bytes: a 200k-binding
/// function has about 5M tokens, and the array's page faults dominated
/// lexing when tokens were 12 bytes.
struct Token {
  static constexpr uint32_t kMaxLength = (1u << 24) - 1;
  uint32_t offset = 0;      ///< Byte offset in the buffer.
  uint32_t length : 24 = 0; ///< At most kMaxLength (longer is a lex error).
  Tok kind : 8 = Tok::Eof;
};
static_assert(sizeof(Token) == 8, "tokens are packed");

/// Directive lines of pass-test files.
struct Directives {
  std::string pipeline;
  std::vector<std::string> configs;
  std::string expectError;
};

struct LexResult {
  std::vector<Token> tokens; ///< Always ends with Eof.
  Directives directives;
};

/// Lexes `buffer` (the whole SourceMgr buffer, so offsets map to SMLocs).
/// Errors are DiagnosticErrors located in the buffer.
llvm::Expected<LexResult> lex(llvm::StringRef buffer);

/// The spelling of a token kind for messages ("'('", "name", "newline").
llvm::StringRef tokName(Tok kind);

/// Decodes a string token (quotes, escapes); `out` receives the value when
/// it differs from the raw contents. Returns the value: the raw contents
/// when no escape is present, else `out`.
llvm::StringRef decodeString(llvm::StringRef tokenText, std::string &out);

} // namespace graft

#endif // GRAFT_TEXT_LEXER_H
