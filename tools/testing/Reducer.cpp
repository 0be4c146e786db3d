//===- tools/testing/Reducer.cpp - Shrinking a failing module --------------------===//

#include "tools/testing/Reducer.h"

#include "tools/testing/Differential.h"

#include "analysis/WellFormed.h"
#include "ir/Printer.h"
#include "pass/PassManager.h"
#include "pass/PassTest.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <vector>

using namespace graft;
using namespace graft::testing;

namespace {

/// The canonical text of the single module of `text` named `Before`, or ""
/// when it does not parse, holds another number of modules, or is
/// ill-formed.
std::string canonical(const std::string &text) {
  auto file = parseText(text, "reduce.py");
  if (!file) {
    llvm::consumeError(file.takeError());
    return "";
  }
  if (file->modules.size() != 1 || !verifyModule(*file->modules.front()).empty())
    return "";
  file->modules.front()->name = "Before";
  return printModule(*file->modules.front());
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  llvm::SmallVector<llvm::StringRef, 64> parts;
  llvm::StringRef(text).split(parts, '\n');
  for (llvm::StringRef p : parts)
    lines.push_back(p.str());
  return lines;
}

size_t indentOf(llvm::StringRef line) { return line.size() - line.ltrim(' ').size(); }

/// The text without binding and return annotations, which the parser infers
/// again: removing a binding or a tuple field then needs no annotation
/// change elsewhere. (Keyword arguments print as `k=v`, so " = " only
/// separates a binding's var from its value.)
std::vector<std::string> unannotated(const std::string &text) {
  std::vector<std::string> lines = splitLines(text);
  for (std::string &l : lines) {
    llvm::StringRef ref(l);
    llvm::StringRef trimmed = ref.ltrim(' ');
    if (trimmed.startswith("def ")) {
      size_t arrow = l.rfind(") -> ");
      if (arrow != std::string::npos)
        l = l.substr(0, arrow + 1) + ":";
      continue;
    }
    size_t eq = l.find(" = ");
    size_t colon = l.find(": ");
    if (eq != std::string::npos && colon != std::string::npos && colon < eq &&
        llvm::all_of(llvm::StringRef(l).slice(indentOf(l), colon),
                     [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      l = l.substr(0, colon) + l.substr(eq);
  }
  return lines;
}

class Reducer {
public:
  explicit Reducer(const ReduceOptions &options) : options_(options) {}

  /// Whether the (canonical, well-formed) text still shows the failure.
  bool interesting(const std::string &text);
  /// Parses, verifies and tests a candidate; on success it becomes current.
  bool tryCandidate(const std::string &candidate);
  void removeChunks();
  void shrinkDims();
  void dropListItems();
  void flattenIfs();
  void bypassBindings();

  std::string current;
  unsigned tries = 0;

private:
  const ReduceOptions &options_;
  std::set<std::string> seen_;
};

bool Reducer::interesting(const std::string &text) {
  if (options_.differential)
    return runTwoWays(text, options_.inputSeed, options_.maxUlps).outcome == TwoWayResult::Differ;
  auto file = parseText(text, "reduce.py");
  if (!file) {
    llvm::consumeError(file.takeError());
    return false;
  }
  auto pipeline = parsePipeline(options_.pipeline);
  if (!pipeline) {
    llvm::consumeError(pipeline.takeError());
    return false;
  }
  PassContext ctx;
  if (llvm::Error err = configurePassContext(ctx, options_.pipeline, {})) {
    llvm::consumeError(std::move(err));
    return false;
  }
  PassManager pm(PassManagerOptions{});
  llvm::Error err = pm.run(*file->modules.front(), *pipeline, ctx);
  if (!err)
    return false;
  std::string message = llvm::toString(std::move(err));
  return message.find(options_.match) != std::string::npos;
}

bool Reducer::tryCandidate(const std::string &candidate) {
  std::string text = canonical(candidate);
  if (text.empty() || text.size() >= current.size() || !seen_.insert(text).second)
    return false;
  ++tries;
  if (!interesting(text))
    return false;
  current = std::move(text);
  return true;
}

/// Delta debugging over lines: chunks of n/2, n/4, ..., 1 lines.
void Reducer::removeChunks() {
  std::vector<std::string> lines = unannotated(current);
  for (size_t size = std::max<size_t>(1, lines.size() / 2); size >= 1; size /= 2) {
    for (size_t start = 0; start < lines.size();) {
      std::vector<std::string> candidate(lines.begin(), lines.begin() + start);
      candidate.insert(candidate.end(), lines.begin() + std::min(lines.size(), start + size),
                       lines.end());
      if (tryCandidate(llvm::join(candidate, "\n")))
        lines = unannotated(current); // Same start: the next chunk moved here.
      else
        start += size;
    }
    if (size == 1)
      break;
  }
}

bool isWordChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// `text` with every whole-word `from` replaced by `to`.
std::string replaceWord(const std::string &text, llvm::StringRef from, llvm::StringRef to) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t end = i + from.size();
    if (text.compare(i, from.size(), from.str()) == 0 && (i == 0 || !isWordChar(text[i - 1])) &&
        (end >= text.size() || !isWordChar(text[end]))) {
      out += to.str();
      i = end;
    } else {
      out += text[i++];
    }
  }
  return out;
}

/// A binding `v = f(a, b)` removed, its later uses reading one of the vars
/// it read instead.
void Reducer::bypassBindings() {
  for (size_t i = 0;; ++i) {
    std::vector<std::string> lines = unannotated(current);
    if (i >= lines.size())
      return;
    llvm::StringRef line = llvm::StringRef(lines[i]).ltrim(' ');
    auto [var, value] = line.split(" = ");
    if (value.empty() || !llvm::all_of(var, isWordChar))
      continue;
    std::set<std::string> operands;
    for (size_t k = 0; k < value.size();) {
      if (!isWordChar(value[k]) || (k > 0 && (isWordChar(value[k - 1]) || value[k - 1] == '.'))) {
        ++k;
        continue;
      }
      size_t end = k;
      while (end < value.size() && isWordChar(value[end]))
        ++end;
      llvm::StringRef word = value.slice(k, end);
      // Not a call, a module member or a keyword argument's name.
      if (end >= value.size() || (value[end] != '(' && value[end] != '.' && value[end] != '='))
        if (!llvm::isDigit(word.front()) && word != "True" && word != "False" && word != var)
          operands.insert(word.str());
      k = end;
    }
    for (const std::string &operand : operands) {
      std::vector<std::string> candidate(lines.begin(), lines.begin() + i);
      for (size_t k = i + 1; k < lines.size(); ++k)
        candidate.push_back(replaceWord(lines[k], var, operand));
      if (tryCandidate(llvm::join(candidate, "\n")))
        break;
    }
  }
}

/// One item less in an `R.output(...)` list or a returned tuple.
void Reducer::dropListItems() {
  for (size_t i = 0;; ++i) {
    std::vector<std::string> lines = unannotated(current);
    if (i >= lines.size())
      return;
    llvm::StringRef line = llvm::StringRef(lines[i]).ltrim(' ');
    llvm::StringRef prefix = line.startswith("R.output(")  ? "R.output("
                             : line.startswith("return (") ? "return ("
                                                           : "";
    if (prefix.empty())
      continue;
    llvm::SmallVector<llvm::StringRef, 8> items;
    line.drop_front(prefix.size()).rtrim(')').split(items, ", ");
    for (size_t drop = 0; drop < items.size() && items.size() > 1; ++drop) {
      std::vector<std::string> kept;
      for (size_t k = 0; k < items.size(); ++k)
        if (k != drop)
          kept.push_back(items[k].str());
      std::string body = llvm::join(kept, ", ");
      std::string replaced =
          std::string(indentOf(lines[i]), ' ') +
          (prefix == "return (" && kept.size() == 1
               ? "return " + body
               : prefix.str() + body + (kept.size() == 1 && prefix == "return (" ? ",)" : ")"));
      std::vector<std::string> candidate = lines;
      candidate[i] = replaced;
      if (tryCandidate(llvm::join(candidate, "\n"))) {
        lines = unannotated(current);
        break;
      }
    }
  }
}

/// An `if`/`else` replaced by one of its branches, dedented.
void Reducer::flattenIfs() {
  for (size_t i = 0;; ++i) {
    std::vector<std::string> lines = unannotated(current);
    if (i >= lines.size())
      return;
    llvm::StringRef line = llvm::StringRef(lines[i]).ltrim(' ');
    if (!line.startswith("if ") || !line.endswith(":"))
      continue;
    size_t indent = indentOf(lines[i]);
    size_t elseAt = i + 1;
    while (elseAt < lines.size() && indentOf(lines[elseAt]) > indent)
      ++elseAt;
    size_t end = elseAt + 1;
    while (end < lines.size() && indentOf(lines[end]) > indent)
      ++end;
    if (elseAt >= lines.size() || llvm::StringRef(lines[elseAt]).ltrim(' ') != "else:")
      continue;
    for (auto [from, to] : {std::pair{i + 1, elseAt}, std::pair{elseAt + 1, end}}) {
      std::vector<std::string> candidate(lines.begin(), lines.begin() + i);
      for (size_t k = from; k < to; ++k)
        candidate.push_back(lines[k].substr(std::min<size_t>(4, indentOf(lines[k]))));
      candidate.insert(candidate.end(), lines.begin() + end, lines.end());
      if (tryCandidate(llvm::join(candidate, "\n")))
        break;
    }
  }
}

/// Each integer literal above 1, everywhere at once, becomes 1.
void Reducer::shrinkDims() {
  std::set<std::string> literals;
  std::string word;
  for (char c : current + " ") {
    if (llvm::isDigit(c)) {
      word += c;
      continue;
    }
    if (!word.empty() && word != "0" && word != "1")
      literals.insert(word);
    word.clear();
  }
  for (const std::string &lit : literals) {
    std::string out;
    const std::string &text = current;
    for (size_t i = 0; i < text.size();) {
      bool boundaryBefore =
          i == 0 || !(llvm::isAlnum(text[i - 1]) || text[i - 1] == '.' || text[i - 1] == '_');
      size_t end = i + lit.size();
      bool boundaryAfter = end >= text.size() || !(llvm::isAlnum(text[end]) || text[end] == '.');
      if (boundaryBefore && boundaryAfter && text.compare(i, lit.size(), lit) == 0) {
        out += "1";
        i = end;
      } else {
        out += text[i++];
      }
    }
    tryCandidate(out);
  }
}

} // namespace

llvm::Expected<ReduceResult> graft::testing::reduceModule(const std::string &text,
                                                          const ReduceOptions &options) {
  Reducer r(options);
  r.current = canonical(text);
  if (r.current.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the input must hold one well-formed module");
  if (!r.interesting(r.current))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        options.differential
            ? "build-cpu and the interpreter agree on the input: nothing to reduce"
            : "the pipeline does not fail on the input with a message containing '" +
                  options.match + "'");
  ReduceResult result;
  result.linesBefore = splitLines(r.current).size();
  for (size_t before = SIZE_MAX; r.current.size() < before;) {
    before = r.current.size();
    r.dropListItems();
    r.flattenIfs();
    r.bypassBindings();
    r.removeChunks();
    r.shrinkDims();
  }
  result.tries = r.tries;
  result.linesAfter = splitLines(r.current).size();
  std::string header;
  if (options.differential) {
    header = "# Reduced by graft reduce --differential --input-seed " +
             std::to_string(options.inputSeed) +
             ": build-cpu and the interpreter disagree on these inputs.\n";
  } else {
    header = "# Reduced by graft reduce.\n# PIPELINE: " + options.pipeline +
             "\n# EXPECT-ERROR: " + options.match + "\n";
  }
  result.text = header + r.current;
  return result;
}
