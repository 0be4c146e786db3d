//===- ir/PrintSupport.cpp - Names and literals of the printer --------------===//
//
// The name table and the literal spellings (strings, floats) that every part
// of the printer shares. Floats print as the shortest text that reads back to
// the same bits, so print -> parse -> print is a fixpoint.
//
//===----------------------------------------------------------------------===//

#include "ir/PrintImpl.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace graft;
using namespace graft::printer;

namespace {

/// Python keywords and the names the printed text itself uses.
const char *const kReserved[] = {
    "False", "None",     "True",  "and",      "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",      "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import",   "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return",   "try",  "while",  "with",   "yield",    "R",
    "T",     "I",        "cls",   "metadata", "_"};

bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// A valid Python identifier made from `hint`; identity on valid input so
/// that re-printing a printed name gives it back.
std::string sanitize(llvm::StringRef hint) {
  if (hint.empty())
    return "v";
  std::string out;
  out.reserve(hint.size() + 1);
  if (!isIdentStart(hint[0]))
    out += '_';
  for (char c : hint)
    out += isIdentChar(c) ? c : '_';
  return out;
}

bool isValidIdent(llvm::StringRef s) {
  if (s.empty() || !isIdentStart(s[0]))
    return false;
  for (char c : s)
    if (!isIdentChar(c))
      return false;
  return true;
}

} // namespace

void NameTable::reset(llvm::StringRef moduleName) {
  used_.clear();
  for (uint32_t id : named_)
    names_.erase(id);
  named_.clear();
  alloc_.Reset();
  for (const char *r : kReserved)
    used_.try_emplace(r, 1);
  if (!moduleName.empty())
    used_.try_emplace(keep(moduleName), 1);
}

llvm::StringRef NameTable::keep(llvm::StringRef s) {
  char *p = alloc_.Allocate<char>(s.size());
  std::copy(s.begin(), s.end(), p);
  return llvm::StringRef(p, s.size());
}

void NameTable::reserve(size_t n) {
  named_.reserve(named_.size() + n);
  used_.reserve(used_.size() + n);
}

llvm::StringRef NameTable::claim(llvm::StringRef hint) {
  std::string base;
  llvm::StringRef b = hint;
  if (!isValidIdent(hint)) {
    base = sanitize(hint);
    b = base;
  }
  auto [it, inserted] = used_.try_emplace(b, 1);
  if (inserted) {
    // The key still points at the caller's text: store a copy. Same
    // characters, so the same hash and slot.
    it->first = keep(b);
    return it->first;
  }
  // Taken: try base_k from the base's counter on.
  unsigned k = it->second;
  llvm::SmallString<32> candidate;
  do {
    candidate.clear();
    (b + "_" + llvm::Twine(k)).toVector(candidate);
    ++k;
  } while (used_.count(candidate));
  it->second = k; // Before inserting: insertion may rehash.
  llvm::StringRef name = keep(candidate);
  used_.try_emplace(name, 1);
  return name;
}

llvm::StringRef NameTable::nameOfId(uint32_t id, llvm::StringRef hint) {
  llvm::StringRef name = names_.lookup(id);
  if (!name.empty())
    return name;
  name = claim(hint);
  names_[id] = name;
  named_.push_back(id);
  return name;
}

void graft::printer::printQuoted(llvm::raw_ostream &os, llvm::StringRef s) {
  os << '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\t':
      os << "\\t";
      break;
    case '\r':
      os << "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7f) {
        os << "\\x" << llvm::hexdigit(c >> 4, true) << llvm::hexdigit(c & 15, true);
      } else {
        os << static_cast<char>(c);
      }
    }
  }
  os << '"';
}

namespace {

bool printNonFinite(llvm::raw_ostream &os, double v) {
  if (std::isnan(v)) {
    os << "\"nan\"";
    return true;
  }
  if (std::isinf(v)) {
    os << (v < 0 ? "\"-inf\"" : "\"inf\"");
    return true;
  }
  return false;
}

/// `%.1f` for integral values (TVM's form; exact for every double), else
/// the shortest `%.Ng` that `accept` reads back to the value.
template <typename Accept>
void printShortest(llvm::raw_ostream &os, double v, int maxDigits, Accept accept) {
  char buf[512];
  if (v == std::floor(v)) { // At most 309 digits: fits buf.
    std::snprintf(buf, sizeof buf, "%.1f", v);
    os << buf;
    return;
  }
  for (int digits = 1; digits <= maxDigits; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (accept(std::strtod(buf, nullptr)))
      break;
  }
  // Non-integral values never print as a bare integer, so the literal
  // always reads back as a float.
  os << buf;
}

} // namespace

void graft::printer::printDouble(llvm::raw_ostream &os, double v) {
  if (printNonFinite(os, v))
    return;
  printShortest(os, v, 17, [v](double back) { return back == v; });
}

void graft::printer::printFloat32(llvm::raw_ostream &os, float v) {
  if (printNonFinite(os, v))
    return;
  printShortest(os, v, 9, [v](double back) {
    float f = static_cast<float>(back);
    return std::memcmp(&f, &v, sizeof f) == 0;
  });
}

std::string graft::printer::dtypeSpelling(DataType dt) {
  return dt.isVoid() ? std::string("void") : dt.str();
}
