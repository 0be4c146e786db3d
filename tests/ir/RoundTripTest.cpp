//===- tests/ir/RoundTripTest.cpp - print/parse fixpoint on the corpus ------===//
//
// For every tests/text/**/*.py (tests/text/errors excluded): parse, print,
// re-parse, re-print. The two printed texts must be identical bytes, and
// every module must compare structurally equal to its re-parsed print (and
// to the original parse). Skipped while the corpus does not exist yet.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace graft;

namespace {

std::string corpusDir() { return std::string(GRAFT_SOURCE_DIR) + "/tests/text"; }

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  std::string errorsDir = corpusDir() + "/errors";
  for (llvm::sys::fs::recursive_directory_iterator it(corpusDir(), ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef path = it->path();
    if (path.startswith(errorsDir)) {
      if (path == errorsDir)
        it.no_push();
      continue;
    }
    if (path.endswith(".py"))
      files.push_back(path.str());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string errorText(llvm::Error err) { return llvm::toString(std::move(err)); }

std::string printAll(const ParsedFile &file) {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const auto &m : file.modules)
    printModule(os, *m);
  os.flush();
  return out;
}

/// Parses `text`, reporting the failure (with the text) to gtest.
llvm::Optional<ParsedFile> parseOrFail(llvm::StringRef text, llvm::StringRef name) {
  auto parsed = parseText(text, name);
  if (!parsed) {
    ADD_FAILURE() << name.str() << ": " << errorText(parsed.takeError()) << "\n--- text ---\n"
                  << text.str();
    return llvm::None;
  }
  return std::move(*parsed);
}

void expectSameModules(const ParsedFile &a, const ParsedFile &b, llvm::StringRef what) {
  ASSERT_EQ(a.modules.size(), b.modules.size()) << what.str();
  for (size_t i = 0; i < a.modules.size(); ++i) {
    auto mismatch = firstMismatch(*a.modules[i], *b.modules[i]);
    EXPECT_FALSE(mismatch.hasValue()) << what.str() << ": module " << a.modules[i]->name << "\n"
                                      << (mismatch ? mismatch->report() : std::string());
  }
}

} // namespace

TEST(RoundTripTest, CorpusPrintsAsFixpointAndReparsesEqual) {
  if (!llvm::sys::fs::is_directory(corpusDir()))
    GTEST_SKIP() << "no corpus at " << corpusDir();
  std::vector<std::string> files = corpusFiles();
  if (files.empty())
    GTEST_SKIP() << "empty corpus at " << corpusDir();
  for (const std::string &path : files) {
    SCOPED_TRACE(path);
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    auto original = parseOrFail((*buffer)->getBuffer(), path);
    if (!original)
      continue;
    std::string first = printAll(*original);
    auto reparsed = parseOrFail(first, path + " (printed)");
    if (!reparsed)
      continue;
    std::string second = printAll(*reparsed);
    EXPECT_EQ(first, second) << "printing is not a fixpoint for " << path;
    expectSameModules(*original, *reparsed, path + ": original vs printed");
  }
}
