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
#include "llvm/Support/xxhash.h"

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
  for (uint32_t id : named_)
    names_.erase(id);
  named_.clear();
  claimed_.clear();
  alloc_.Reset();
  numbered_.clear();
  lastBase_ = {};
  lastNumbered_ = nullptr;
  // A small table again (reserve() grows it per function): clearing the
  // table of a large function for each small one would cost its size.
  slots_.assign(64, 0);
  numHashed_ = 0;
  for (const char *r : kReserved)
    addName(r);
  if (!moduleName.empty() && !find(moduleName))
    addName(keep(moduleName));
}

llvm::StringRef NameTable::keep(llvm::StringRef s) {
  char *p = alloc_.Allocate<char>(s.size());
  std::copy(s.begin(), s.end(), p);
  return llvm::StringRef(p, s.size());
}

uint32_t NameTable::hashName(llvm::StringRef s) { return static_cast<uint32_t>(llvm::xxHash64(s)); }

bool NameTable::splitNumbered(llvm::StringRef s, llvm::StringRef &base, uint32_t &number) {
  size_t digits = 0;
  while (digits < s.size() && digits < 8 && llvm::isDigit(s[s.size() - 1 - digits]))
    ++digits;
  if (digits == 0 || digits == s.size() || llvm::isDigit(s[s.size() - 1 - digits]))
    return false; // No number, no base, or more digits than kept here.
  llvm::StringRef tail = s.take_back(digits);
  if (digits > 1 && tail[0] == '0')
    return false; // `v01` is not `v1`: such a name goes by its text.
  uint32_t n = 0;
  for (char c : tail)
    n = n * 10 + static_cast<uint32_t>(c - '0');
  if (n >= kMaxNumbered)
    return false;
  base = s.drop_back(digits);
  number = n;
  return true;
}

DenseIdMap<uint32_t> *NameTable::numberedOf(llvm::StringRef base, bool create) {
  if (lastNumbered_ && lastBase_ == base)
    return lastNumbered_;
  auto it = numbered_.find(base);
  if (it == numbered_.end()) {
    if (!create)
      return nullptr;
    it = numbered_.try_emplace(base, std::make_unique<DenseIdMap<uint32_t>>()).first;
  }
  lastBase_ = it->getKey();
  lastNumbered_ = it->getValue().get();
  return lastNumbered_;
}

uint32_t NameTable::find(llvm::StringRef s) {
  llvm::StringRef base;
  uint32_t number;
  if (splitNumbered(s, base, number)) {
    DenseIdMap<uint32_t> *m = numberedOf(base, false);
    return m ? m->lookup(number) : 0;
  }
  return static_cast<uint32_t>(*findSlot(s, hashName(s)));
}

uint64_t *NameTable::findSlot(llvm::StringRef s, uint32_t hash) {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint64_t slot = slots_[i];
    if (slot == 0)
      return &slots_[i];
    if (static_cast<uint32_t>(slot >> 32) == hash &&
        claimed_[static_cast<uint32_t>(slot) - 1].name == s)
      return &slots_[i];
  }
}

void NameTable::growSlots(size_t minSlots) {
  size_t n = slots_.size();
  while (n < minSlots)
    n *= 2;
  if (n == slots_.size())
    return;
  std::vector<uint64_t> old(n, 0);
  old.swap(slots_);
  size_t mask = n - 1;
  for (uint64_t slot : old) {
    if (slot == 0)
      continue;
    size_t i = static_cast<uint32_t>(slot >> 32) & mask;
    while (slots_[i] != 0)
      i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

uint32_t NameTable::addName(llvm::StringRef kept) {
  llvm::StringRef base;
  uint32_t number;
  if (splitNumbered(kept, base, number)) {
    uint32_t index = static_cast<uint32_t>(claimed_.size());
    claimed_.push_back({kept, 1});
    (*numberedOf(base, true))[number] = index + 1;
    return index;
  }
  return addHashed(kept, hashName(kept));
}

uint32_t NameTable::addHashed(llvm::StringRef kept, uint32_t hash) {
  uint32_t index = static_cast<uint32_t>(claimed_.size());
  claimed_.push_back({kept, 1});
  // At most half full.
  if ((numHashed_ + 1) * 2 > slots_.size())
    growSlots((numHashed_ + 1) * 2);
  *findSlot(kept, hash) = (static_cast<uint64_t>(hash) << 32) | (index + 1);
  ++numHashed_;
  return index;
}

void NameTable::reserve(size_t n) {
  named_.reserve(named_.size() + n);
  claimed_.reserve(claimed_.size() + n);
}

uint32_t NameTable::claim(llvm::StringRef hint) {
  std::string base;
  llvm::StringRef b = hint;
  if (!isValidIdent(hint)) {
    base = sanitize(hint);
    b = base;
  }
  // The name is split and looked up once: this runs for every var.
  uint32_t taken;
  llvm::StringRef numberedBase;
  uint32_t number;
  if (splitNumbered(b, numberedBase, number)) {
    uint32_t &entry = (*numberedOf(numberedBase, true))[number];
    if (entry == 0) {
      uint32_t index = static_cast<uint32_t>(claimed_.size());
      claimed_.push_back({keep(b), 1});
      entry = index + 1;
      return index;
    }
    taken = entry;
  } else {
    uint32_t hash = hashName(b);
    taken = static_cast<uint32_t>(*findSlot(b, hash));
    if (taken == 0)
      return addHashed(keep(b), hash);
  }
  // Taken: try base_k from the base's counter on.
  unsigned k = claimed_[taken - 1].nextSuffix;
  llvm::SmallString<32> candidate;
  do {
    candidate.clear();
    (b + "_" + llvm::Twine(k)).toVector(candidate);
    ++k;
  } while (find(candidate) != 0);
  claimed_[taken - 1].nextSuffix = k;
  return addName(keep(candidate));
}

llvm::StringRef NameTable::nameOfId(uint32_t id, llvm::StringRef hint) {
  uint32_t index = names_.lookup(id);
  if (index != 0)
    return claimed_[index - 1].name;
  index = claim(hint);
  names_[id] = index + 1;
  named_.push_back(id);
  return claimed_[index].name;
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

void graft::printer::printDType(llvm::raw_ostream &os, DataType dt) {
  // The common types without building a string: one per tensor annotation.
  if (dt.lanes == 1 && !dt.isBool()) {
    const char *prefix = dt.code == DataType::Int      ? "int"
                         : dt.code == DataType::UInt   ? "uint"
                         : dt.code == DataType::Float  ? "float"
                         : dt.code == DataType::BFloat ? "bfloat"
                                                       : nullptr;
    if (prefix) {
      os << prefix << static_cast<unsigned>(dt.bits);
      return;
    }
  }
  os << dt.str();
}

std::string graft::printer::dtypeSpelling(DataType dt) {
  return dt.isVoid() ? std::string("void") : dt.str();
}
