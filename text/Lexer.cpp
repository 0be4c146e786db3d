//===- text/Lexer.cpp - Python-shaped tokens for TVMScript ------------------===//
//
// Python's layout rule: an indentation stack produces INDENT/DEDENT at the
// start of each logical line; newlines inside brackets and after a
// backslash do not end a line; blank and comment-only lines are invisible.
//
//===----------------------------------------------------------------------===//

#include "text/Lexer.h"

#include "ir/Diagnostics.h"
#include "ir/HugePages.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace graft;

namespace {

class Lexer {
public:
  explicit Lexer(llvm::StringRef buf) : buf_(buf) {}

  llvm::Expected<LexResult> run();

private:
  llvm::Error error(size_t pos, const llvm::Twine &msg) const {
    return diagError(llvm::SMLoc::getFromPointer(buf_.data() + std::min(pos, buf_.size())), msg);
  }
  char at(size_t i) const { return i < buf_.size() ? buf_[i] : '\0'; }
  void push(Tok kind, size_t start, size_t end) {
    if (end - start > Token::kMaxLength && tooLong_ == SIZE_MAX)
      tooLong_ = start; // Reported once lexing ends: push stays cheap.
    Token t;
    t.offset = static_cast<uint32_t>(start);
    t.length = static_cast<uint32_t>(end - start);
    t.kind = kind;
    out_.tokens.push_back(t);
  }
  bool lastIsLineEnd() const {
    if (out_.tokens.empty())
      return true;
    Tok k = out_.tokens.back().kind;
    return k == Tok::Newline || k == Tok::Indent || k == Tok::Dedent;
  }

  llvm::Error lineStart();
  void comment();
  llvm::Error number();
  llvm::Error string(size_t start, size_t quotePos);
  llvm::Error punct();

  llvm::StringRef buf_;
  size_t pos_ = 0;
  /// Offsets of the brackets still open, innermost last. Closing brackets
  /// are matched here, as Python's tokenizer does, because a PrimFunc body
  /// that graft keeps as tokens is never parsed: a stray or mismatched
  /// bracket would survive into printed text that no parser reads back.
  llvm::SmallVector<size_t, 16> open_;
  llvm::Error closeBracket(char close);
  llvm::SmallVector<unsigned, 16> indents_{0};
  size_t tooLong_ = SIZE_MAX; ///< Start of the first token over Token::kMaxLength.
  LexResult out_;
};

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Records a directive comment; `text` starts after '#'.
void recordDirective(llvm::StringRef text, Directives &d) {
  text = text.ltrim();
  if (text.consume_front("PIPELINE:"))
    d.pipeline = text.trim().str();
  else if (text.consume_front("CONFIG:"))
    d.configs.push_back(text.trim().str());
  else if (text.consume_front("EXPECT-ERROR:"))
    d.expectError = text.trim().str();
}

void Lexer::comment() {
  size_t start = pos_;
  while (pos_ < buf_.size() && buf_[pos_] != '\n' && buf_[pos_] != '\r')
    ++pos_;
  recordDirective(buf_.slice(start + 1, pos_), out_.directives);
}

/// At the start of a physical line outside brackets: measure the indent and
/// emit INDENT/DEDENTs unless the line is blank or a comment.
llvm::Error Lexer::lineStart() {
  for (;;) {
    unsigned col = 0;
    size_t p = pos_;
    for (;; ++p) {
      char c = at(p);
      if (c == ' ')
        ++col;
      else if (c == '\t')
        col = (col / 8 + 1) * 8;
      else if (c == '\f')
        col = 0;
      else
        break;
    }
    pos_ = p;
    char c = at(pos_);
    if (c == '#') {
      comment();
      c = at(pos_);
    }
    if (c == '\r' || c == '\n') {
      pos_ += (c == '\r' && at(pos_ + 1) == '\n') ? 2 : 1;
      continue;
    }
    if (pos_ >= buf_.size())
      return llvm::Error::success();
    if (c == '\\' && (at(pos_ + 1) == '\n' || at(pos_ + 1) == '\r'))
      return llvm::Error::success(); // A continuation: layout of the next line decides.
    if (col > indents_.back()) {
      if (indents_.size() > 1024)
        return error(pos_, "nesting too deep");
      indents_.push_back(col);
      push(Tok::Indent, pos_, pos_);
    } else {
      while (col < indents_.back()) {
        indents_.pop_back();
        push(Tok::Dedent, pos_, pos_);
      }
      if (col != indents_.back())
        return error(pos_, "unindent does not match any outer indentation level");
    }
    return llvm::Error::success();
  }
}

llvm::Error Lexer::number() {
  size_t start = pos_;
  bool isFloat = false;
  if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X' || at(pos_ + 1) == 'o' ||
                          at(pos_ + 1) == 'O' || at(pos_ + 1) == 'b' || at(pos_ + 1) == 'B')) {
    pos_ += 2;
    while (isNameChar(at(pos_)))
      ++pos_;
    push(Tok::Int, start, pos_);
    return llvm::Error::success();
  }
  while (isDigit(at(pos_)) || at(pos_) == '_')
    ++pos_;
  if (at(pos_) == '.') {
    isFloat = true;
    ++pos_;
    while (isDigit(at(pos_)) || at(pos_) == '_')
      ++pos_;
  }
  if (at(pos_) == 'e' || at(pos_) == 'E') {
    size_t p = pos_ + 1;
    if (at(p) == '+' || at(p) == '-')
      ++p;
    if (isDigit(at(p))) {
      isFloat = true;
      pos_ = p;
      while (isDigit(at(pos_)))
        ++pos_;
    }
  }
  if (isNameChar(at(pos_)))
    return error(pos_, "invalid number literal");
  push(isFloat ? Tok::Float : Tok::Int, start, pos_);
  return llvm::Error::success();
}

/// `start` is where the token starts (a prefix such as `r`), `quotePos`
/// the opening quote.
llvm::Error Lexer::string(size_t start, size_t quotePos) {
  char q = at(quotePos);
  bool triple = at(quotePos + 1) == q && at(quotePos + 2) == q;
  size_t p = quotePos + (triple ? 3 : 1);
  for (;;) {
    if (p >= buf_.size())
      return error(start, "unterminated string literal");
    char c = buf_[p];
    if (c == '\\') {
      p += 2;
      continue;
    }
    if (!triple && (c == '\n' || c == '\r'))
      return error(start, "unterminated string literal");
    if (c == q) {
      if (!triple) {
        ++p;
        break;
      }
      if (at(p + 1) == q && at(p + 2) == q) {
        p += 3;
        break;
      }
    }
    ++p;
  }
  pos_ = p;
  push(Tok::String, start, pos_);
  return llvm::Error::success();
}

/// A punctuation token and its length in characters.
struct Punct {
  Tok kind;
  unsigned len;
};

/// The punctuation token that starts with `c` followed by `n`; None when
/// `c` starts none.
llvm::Optional<Punct> punctTok(char c, char n) {
  auto two = [&](char second, Tok twoKind, Tok oneKind) {
    return n == second ? Punct{twoKind, 2} : Punct{oneKind, 1};
  };
  switch (c) {
  case '(':
    return Punct{Tok::LParen, 1};
  case '[':
    return Punct{Tok::LBracket, 1};
  case '{':
    return Punct{Tok::LBrace, 1};
  case ')':
    return Punct{Tok::RParen, 1};
  case ']':
    return Punct{Tok::RBracket, 1};
  case '}':
    return Punct{Tok::RBrace, 1};
  case ',':
    return Punct{Tok::Comma, 1};
  case ':':
    return Punct{Tok::Colon, 1};
  case '.':
    return Punct{Tok::Dot, 1};
  case ';':
    return Punct{Tok::Semi, 1};
  case '@':
    return Punct{Tok::At, 1};
  case '~':
    return Punct{Tok::Tilde, 1};
  case '&':
    return Punct{Tok::Amp, 1};
  case '|':
    return Punct{Tok::Pipe, 1};
  case '^':
    return Punct{Tok::Caret, 1};
  case '%':
    return Punct{Tok::Percent, 1};
  case '=':
    return two('=', Tok::EqEq, Tok::Assign);
  case '+':
    return two('=', Tok::PlusAssign, Tok::Plus);
  case '-':
    return n == '>' ? Punct{Tok::Arrow, 2} : two('=', Tok::MinusAssign, Tok::Minus);
  case '*':
    return n == '*' ? Punct{Tok::DoubleStar, 2} : two('=', Tok::StarAssign, Tok::Star);
  case '/':
    return n == '/' ? Punct{Tok::DoubleSlash, 2} : two('=', Tok::SlashAssign, Tok::Slash);
  case '<':
    return n == '<' ? Punct{Tok::ShiftL, 2} : two('=', Tok::LessEq, Tok::Less);
  case '>':
    return n == '>' ? Punct{Tok::ShiftR, 2} : two('=', Tok::GreaterEq, Tok::Greater);
  case '!':
    if (n != '=')
      return llvm::None;
    return Punct{Tok::NotEq, 2};
  default:
    return llvm::None;
  }
}

llvm::Error Lexer::punct() {
  char c = at(pos_), n = at(pos_ + 1);
  llvm::Optional<Punct> p = punctTok(c, n);
  if (!p) {
    if (c == '!')
      return error(pos_, "unexpected character '!'");
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || u < 0x20)
      return error(pos_, "unexpected character in input");
    return error(pos_, llvm::Twine("unexpected character '") + llvm::Twine(c) + "'");
  }
  if (p->kind == Tok::LParen || p->kind == Tok::LBracket || p->kind == Tok::LBrace)
    open_.push_back(pos_);
  else if (p->kind == Tok::RParen || p->kind == Tok::RBracket || p->kind == Tok::RBrace)
    if (auto err = closeBracket(c))
      return err;
  push(p->kind, pos_, pos_ + p->len);
  pos_ += p->len;
  return llvm::Error::success();
}

llvm::Error Lexer::closeBracket(char close) {
  if (open_.empty())
    return error(pos_, "unmatched '" + llvm::Twine(close) + "'");
  char opened = buf_[open_.back()];
  char expected = opened == '(' ? ')' : opened == '[' ? ']' : '}';
  if (close != expected)
    return error(pos_, "closing parenthesis '" + llvm::Twine(close) +
                           "' does not match opening parenthesis '" + llvm::Twine(opened) + "'");
  open_.pop_back();
  return llvm::Error::success();
}

llvm::Expected<LexResult> Lexer::run() {
  if (buf_.size() >= UINT32_MAX)
    return error(0, "input too large");
  // TVMScript runs at about one token per three bytes. Reserving more than
  // that costs only address space (untouched pages are never faulted in),
  // while growing the vector would copy and fault the whole array again.
  out_.tokens.reserve(buf_.size() / 2 + 16);
  adviseHugePages(out_.tokens.data(), out_.tokens.capacity() * sizeof(Token));
  if (auto err = lineStart())
    return err;
  while (pos_ < buf_.size()) {
    char c = buf_[pos_];
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos_;
    } else if (c == '#') {
      comment();
    } else if (c == '\\' && (at(pos_ + 1) == '\n' || at(pos_ + 1) == '\r')) {
      pos_ += 1;
      pos_ += (at(pos_) == '\r' && at(pos_ + 1) == '\n') ? 2 : 1;
    } else if (c == '\n' || c == '\r') {
      pos_ += (c == '\r' && at(pos_ + 1) == '\n') ? 2 : 1;
      if (!open_.empty())
        continue;
      if (!lastIsLineEnd())
        push(Tok::Newline, pos_ - 1, pos_ - 1);
      if (auto err = lineStart())
        return err;
    } else if (isNameStart(c)) {
      size_t start = pos_;
      while (isNameChar(at(pos_)))
        ++pos_;
      llvm::StringRef word = buf_.slice(start, pos_);
      bool prefix = word.size() <= 2 && word.find_first_not_of("rRbBuUfF") == llvm::StringRef::npos;
      if (prefix && (at(pos_) == '"' || at(pos_) == '\'')) {
        if (auto err = string(start, pos_))
          return err;
      } else {
        push(Tok::Name, start, pos_);
      }
    } else if (isDigit(c) || (c == '.' && isDigit(at(pos_ + 1)))) {
      if (auto err = number())
        return err;
    } else if (c == '"' || c == '\'') {
      if (auto err = string(pos_, pos_))
        return err;
    } else if (auto err = punct()) {
      return err;
    }
  }
  // An open bracket joins every later line into one logical line: left open,
  // it would swallow whatever the printer puts after it.
  if (!open_.empty())
    return error(open_.front(), "'" + llvm::Twine(buf_[open_.front()]) + "' was never closed");
  if (!lastIsLineEnd())
    push(Tok::Newline, buf_.size(), buf_.size());
  while (indents_.size() > 1) {
    indents_.pop_back();
    push(Tok::Dedent, buf_.size(), buf_.size());
  }
  push(Tok::Eof, buf_.size(), buf_.size());
  if (tooLong_ != SIZE_MAX)
    return error(tooLong_, "token too long");
  return std::move(out_);
}

} // namespace

llvm::Expected<LexResult> graft::lex(llvm::StringRef buffer) { return Lexer(buffer).run(); }

llvm::StringRef graft::tokName(Tok kind) {
  switch (kind) {
  case Tok::Eof:
    return "end of file";
  case Tok::Newline:
    return "newline";
  case Tok::Indent:
    return "indent";
  case Tok::Dedent:
    return "dedent";
  case Tok::Name:
    return "name";
  case Tok::Int:
    return "integer";
  case Tok::Float:
    return "float";
  case Tok::String:
    return "string";
  case Tok::LParen:
    return "'('";
  case Tok::RParen:
    return "')'";
  case Tok::LBracket:
    return "'['";
  case Tok::RBracket:
    return "']'";
  case Tok::LBrace:
    return "'{'";
  case Tok::RBrace:
    return "'}'";
  case Tok::Comma:
    return "','";
  case Tok::Colon:
    return "':'";
  case Tok::Dot:
    return "'.'";
  case Tok::Semi:
    return "';'";
  case Tok::At:
    return "'@'";
  case Tok::Arrow:
    return "'->'";
  case Tok::Assign:
    return "'='";
  default:
    return "operator";
  }
}

llvm::StringRef graft::decodeString(llvm::StringRef text, std::string &out) {
  bool raw = false;
  while (!text.empty() && text.front() != '"' && text.front() != '\'') {
    if (text.front() == 'r' || text.front() == 'R')
      raw = true;
    text = text.drop_front();
  }
  if (text.size() >= 6 && (text.startswith("\"\"\"") || text.startswith("'''")))
    text = text.drop_front(3).drop_back(3);
  else if (text.size() >= 2)
    text = text.drop_front().drop_back();
  else
    return {};
  if (raw || text.find('\\') == llvm::StringRef::npos)
    return text;
  out.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '\\' || i + 1 >= text.size()) {
      out.push_back(c);
      continue;
    }
    char e = text[++i];
    switch (e) {
    case 'n':
      out.push_back('\n');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case '0':
      out.push_back('\0');
      break;
    case '\\':
      out.push_back('\\');
      break;
    case '\'':
      out.push_back('\'');
      break;
    case '"':
      out.push_back('"');
      break;
    case '\n':
      break;
    case 'x': {
      unsigned v = 0;
      if (i + 2 < text.size() && !text.substr(i + 1, 2).getAsInteger(16, v)) {
        out.push_back(static_cast<char>(v));
        i += 2;
      } else {
        out.push_back('\\');
        out.push_back('x');
      }
      break;
    }
    default:
      out.push_back('\\');
      out.push_back(e);
    }
  }
  return out;
}
