//===- tools/graft/LitSupport.cpp - split-input-file, verify-diagnostics ----===//

#include "LitSupport.h"

#include "ir/Diagnostics.h"
#include "ir/Printer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Timer.h"

#include <algorithm>

using namespace graft;
using namespace graft::driver;

namespace {

/// The lines of a buffer, each with the pointer where it starts (for
/// locations).
std::vector<llvm::StringRef> linesOf(llvm::StringRef buffer) {
  std::vector<llvm::StringRef> lines;
  while (!buffer.empty()) {
    auto [line, rest] = buffer.split('\n');
    lines.push_back(line.rtrim('\r'));
    buffer = rest;
  }
  return lines;
}

bool isSeparator(llvm::StringRef line) { return line.rtrim() == kSplitMarker; }

/// `#`, blanks and three or more dashes: a ruler meant as a separator.
bool looksLikeSeparator(llvm::StringRef line) {
  llvm::StringRef s = line.trim();
  if (!s.consume_front("#"))
    return false;
  s = s.ltrim();
  size_t dashes = s.find_first_not_of('-');
  return s.size() >= 3 && s.startswith("---") && (dashes == llvm::StringRef::npos || dashes >= 3);
}

/// A line that holds code (not blank, not only a comment).
bool holdsCode(llvm::StringRef line) {
  llvm::StringRef s = line.ltrim();
  return !s.empty() && !s.startswith("#");
}

llvm::SMLoc locOf(llvm::StringRef line) { return llvm::SMLoc::getFromPointer(line.data()); }

InputSplit makeSplit(llvm::ArrayRef<llvm::StringRef> lines, unsigned first, unsigned last) {
  InputSplit split;
  split.firstLine = first + 1;
  split.lastLine = last;
  split.text.assign(first, '\n');
  for (unsigned i = first; i < last; ++i) {
    split.text += lines[i];
    split.text += '\n';
  }
  return split;
}

} // namespace

InputSplit driver::wholeInput(const llvm::SourceMgr &sm, unsigned bufferId) {
  std::vector<llvm::StringRef> lines = linesOf(sm.getMemoryBuffer(bufferId)->getBuffer());
  return makeSplit(lines, 0, lines.size());
}

llvm::Expected<std::vector<InputSplit>> driver::splitInput(const llvm::SourceMgr &sm,
                                                           unsigned bufferId) {
  std::vector<llvm::StringRef> lines = linesOf(sm.getMemoryBuffer(bufferId)->getBuffer());
  std::vector<InputSplit> splits;
  unsigned start = 0;
  auto close = [&](unsigned end, llvm::SMLoc where) -> llvm::Error {
    bool code = llvm::any_of(llvm::makeArrayRef(lines).slice(start, end - start), holdsCode);
    if (!code)
      return diagError(where, "split " + llvm::Twine(splits.size() + 1) +
                                  " holds no code: two '# -----' lines in a row, or one at the "
                                  "start or end of the file");
    splits.push_back(makeSplit(lines, start, end));
    return llvm::Error::success();
  };
  for (unsigned i = 0; i < lines.size(); ++i) {
    if (isSeparator(lines[i])) {
      if (llvm::Error err = close(i, locOf(lines[i])))
        return err;
      start = i + 1;
      continue;
    }
    if (looksLikeSeparator(lines[i]))
      return diagError(locOf(lines[i].drop_front(lines[i].find('#'))),
                       "malformed split separator: write '" + kSplitMarker +
                           "' alone on its line, at column 1");
  }
  llvm::SMLoc end = lines.empty() ? llvm::SMLoc() : locOf(lines.back());
  if (llvm::Error err = close(lines.size(), end))
    return err;
  return splits;
}

//===----------------------------------------------------------------------===//
// Expected diagnostics
//===----------------------------------------------------------------------===//

namespace {

const char *const kDirectiveSyntax =
    "write '# expected-error {{MESSAGE}}' (or expected-note), optionally with @above, @below, "
    "@+N, @-N or @unknown after the kind";

struct Directive {
  ExpectedDiagnostic diag;
  llvm::StringRef offset; ///< "", "above", "below", "unknown", "+N", "-N"
};

/// The directive on one line, if any. Only the code lines count for @above
/// and @below: a diagnostic never points at a blank or comment line.
llvm::Expected<llvm::Optional<Directive>> parseDirective(llvm::StringRef line) {
  size_t at = line.find("expected-");
  if (at == llvm::StringRef::npos)
    return llvm::None;
  llvm::StringRef rest = line.drop_front(at);
  llvm::StringRef after = rest;
  if (!after.consume_front("expected-error") && !after.consume_front("expected-note"))
    return llvm::None;
  // Prose that mentions expected-error is no directive; `@` or `{` after
  // the kind is one, and is then checked strictly.
  after = after.ltrim(' ');
  if (!after.startswith("@") && !after.startswith("{"))
    return llvm::None;
  if (line.take_front(at).find('#') == llvm::StringRef::npos)
    return diagError(locOf(rest),
                     "expected-error outside a comment; " + llvm::Twine(kDirectiveSyntax));
  static const llvm::Regex re("^expected-(error|note) *(@([-+][0-9]+|above|below|unknown))? "
                              "*\\{\\{(.*)\\}\\} *$");
  llvm::SmallVector<llvm::StringRef, 5> m;
  if (!re.match(rest, &m))
    return diagError(locOf(rest), "malformed directive; " + llvm::Twine(kDirectiveSyntax));
  if (m[4].trim().empty())
    return diagError(locOf(rest),
                     "the expected message is empty; " + llvm::Twine(kDirectiveSyntax));
  Directive d;
  d.diag.kind = m[1] == "error" ? llvm::SourceMgr::DK_Error : llvm::SourceMgr::DK_Note;
  d.diag.text = m[4].trim().str();
  d.diag.at = locOf(rest);
  d.offset = m[3];
  return d;
}

} // namespace

llvm::Expected<std::vector<ExpectedDiagnostic>>
driver::parseExpectedDiagnostics(const llvm::SourceMgr &sm, unsigned bufferId,
                                 const InputSplit &split) {
  std::vector<llvm::StringRef> lines = linesOf(sm.getMemoryBuffer(bufferId)->getBuffer());
  std::vector<ExpectedDiagnostic> out;
  std::vector<size_t> waitingForBelow;
  unsigned lastPlainLine = 0;
  for (unsigned no = split.firstLine; no <= split.lastLine && no <= lines.size(); ++no) {
    auto directive = parseDirective(lines[no - 1]);
    if (!directive)
      return directive.takeError();
    if (!*directive) {
      if (!holdsCode(lines[no - 1]))
        continue;
      lastPlainLine = no;
      for (size_t i : waitingForBelow)
        out[i].line = no;
      waitingForBelow.clear();
      continue;
    }
    Directive &d = **directive;
    ExpectedDiagnostic diag = d.diag;
    if (d.offset.empty()) {
      diag.line = no;
    } else if (d.offset == "unknown") {
      diag.line = 0;
    } else if (d.offset == "above") {
      if (!lastPlainLine)
        return diagError(diag.at, "@above: no line above it in this split");
      diag.line = lastPlainLine;
    } else if (d.offset == "below") {
      waitingForBelow.push_back(out.size());
    } else {
      long long delta = 0;
      llvm::StringRef(d.offset).drop_front(d.offset[0] == '+').getAsInteger(10, delta);
      long long target = static_cast<long long>(no) + delta;
      if (target < split.firstLine || target > split.lastLine)
        return diagError(diag.at, "@" + d.offset + " points to line " + llvm::Twine(target) +
                                      ", outside lines " + llvm::Twine(split.firstLine) + "-" +
                                      llvm::Twine(split.lastLine) + " of this split");
      diag.line = static_cast<unsigned>(target);
    }
    out.push_back(std::move(diag));
  }
  if (!waitingForBelow.empty())
    return diagError(out[waitingForBelow.front()].at, "@below: no line below it in this split");
  return out;
}

namespace {

llvm::StringRef kindName(llvm::SourceMgr::DiagKind kind) {
  return kind == llvm::SourceMgr::DK_Note ? "note" : "error";
}

bool matches(const ExpectedDiagnostic &e, const CapturedDiagnostic &d) {
  return e.kind == d.kind && e.line == d.line && llvm::StringRef(d.message).contains(e.text);
}

} // namespace

bool driver::checkDiagnostics(const std::vector<ExpectedDiagnostic> &expected,
                              const std::vector<CapturedDiagnostic> &reported, llvm::SourceMgr &sm,
                              unsigned bufferId, llvm::raw_ostream &os) {
  std::vector<bool> used(reported.size(), false);
  bool agree = true;
  for (const ExpectedDiagnostic &e : expected) {
    size_t i = 0;
    while (i < reported.size() && (used[i] || !matches(e, reported[i])))
      ++i;
    if (i < reported.size()) {
      used[i] = true;
      continue;
    }
    agree = false;
    sm.PrintMessage(os, e.at, llvm::SourceMgr::DK_Error,
                    "expected " + kindName(e.kind) + " \"" + e.text + "\" was not produced");
  }
  llvm::StringRef name = sm.getMemoryBuffer(bufferId)->getBufferIdentifier();
  for (size_t i = 0; i < reported.size(); ++i) {
    if (used[i])
      continue;
    agree = false;
    const CapturedDiagnostic &d = reported[i];
    std::string message = "unexpected " + kindName(d.kind).str() + ": " + d.message;
    if (d.line == 0) {
      os << name << ": error: " << message << " (unlocated: expect it with @unknown)\n";
      continue;
    }
    sm.PrintMessage(os, sm.FindLocForLineAndColumn(bufferId, d.line, d.column),
                    llvm::SourceMgr::DK_Error, message);
  }
  return agree;
}

//===----------------------------------------------------------------------===//
// graft opt --split-input-file / --verify-diagnostics
//===----------------------------------------------------------------------===//

namespace {

/// Runs one split; returns its exit code (with --verify-diagnostics: 0 when
/// its diagnostics are the expected ones, else 1).
int runSplit(const OptArgs &args, const InputSplit &split, llvm::SourceMgr &sm, unsigned bufferId,
             llvm::TimerGroup &timers, llvm::raw_ostream &out) {
  OptArgs one = args;
  one.text = split.text;
  if (!args.verifyDiagnostics) {
    int code = kSuccess;
    if (std::unique_ptr<Input> input = runPipelineOnFile(one, timers, code))
      printModule(out, *input->modules.front());
    return code;
  }
  auto expected = parseExpectedDiagnostics(sm, bufferId, split);
  if (!expected) {
    printError(expected.takeError(), &sm, llvm::errs());
    return kBadInput;
  }
  std::vector<CapturedDiagnostic> reported;
  {
    DiagnosticCapture capture;
    int code = kSuccess;
    if (std::unique_ptr<Input> input = runPipelineOnFile(one, timers, code))
      printModule(out, *input->modules.front());
    reported = std::move(capture.diagnostics);
  }
  return checkDiagnostics(*expected, reported, sm, bufferId, llvm::errs()) ? kSuccess : kNegative;
}

/// The worst of two exit codes: bad input over a negative answer over success.
int worse(int a, int b) { return std::max(a, b); }

} // namespace

int driver::runOptOnSplits(const OptArgs &args) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(args.file);
  if (!buffer) {
    llvm::errs() << "graft: error: cannot read '" << args.file
                 << "': " << buffer.getError().message() << "\n";
    return kBadInput;
  }
  llvm::SourceMgr sm;
  unsigned bufferId = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer((*buffer)->getBuffer(), args.file), llvm::SMLoc());
  std::vector<InputSplit> splits;
  if (args.splitInputFile) {
    auto cut = splitInput(sm, bufferId);
    if (!cut) {
      printError(cut.takeError(), &sm, llvm::errs());
      return kBadInput;
    }
    splits = std::move(*cut);
  } else {
    splits.push_back(wholeInput(sm, bufferId));
  }

  std::error_code ec;
  llvm::Optional<llvm::raw_fd_ostream> file;
  if (!args.output.empty() && args.output != "-") {
    file.emplace(args.output, ec);
    if (ec) {
      llvm::errs() << "graft: error: cannot write " << args.output << ": " << ec.message() << "\n";
      return kBadInput;
    }
  }
  llvm::raw_ostream &out = file ? static_cast<llvm::raw_ostream &>(*file) : llvm::outs();
  llvm::TimerGroup timers("graft", "graft execution timing (parse, passes, print)");
  int exitCode = kSuccess;
  for (size_t i = 0; i < splits.size(); ++i) {
    if (i)
      out << kSplitMarker << "\n";
    exitCode = worse(exitCode, runSplit(args, splits[i], sm, bufferId, timers, out));
  }
  return exitCode;
}
