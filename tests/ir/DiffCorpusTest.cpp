//===- tests/ir/DiffCorpusTest.cpp - Data-driven structural diff cases ------===//
//
// Every tests/diff/*.py holds two modules, A and B, and says on its first
// line what comparing A with B gives:
//   # DIFF: equal                 A and B are structurally equal (and hash alike)
//   # DIFF: <path>                the first mismatch, at <path> on both sides
// An optional `# DIFF-RHS: <path>` line gives B's path when it differs from
// A's (a missing item on one side).
//
//===----------------------------------------------------------------------===//

#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace graft;

namespace {

std::string corpusDir() { return std::string(GRAFT_SOURCE_DIR) + "/tests/diff"; }

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(corpusDir(), ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".py")
      files.push_back(llvm::sys::path::filename(it->path()).str());
  std::sort(files.begin(), files.end());
  return files;
}

struct Expectation {
  bool equal = false;
  std::string lhsPath, rhsPath;
};

/// Reads the `# DIFF:` / `# DIFF-RHS:` header lines.
llvm::Optional<Expectation> readExpectation(llvm::StringRef text) {
  llvm::StringRef first, rest;
  std::tie(first, rest) = text.split('\n');
  if (!first.consume_front("# DIFF:"))
    return llvm::None;
  Expectation e;
  first = first.trim();
  e.equal = first == "equal";
  e.lhsPath = e.rhsPath = first.str();
  llvm::StringRef second = rest.split('\n').first;
  if (second.consume_front("# DIFF-RHS:"))
    e.rhsPath = second.trim().str();
  return e;
}

class DiffCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(DiffCorpus, FirstMismatchPath) {
  std::string path = corpusDir() + "/" + GetParam();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer)) << "cannot read " << path;
  llvm::Optional<Expectation> expect = readExpectation((*buffer)->getBuffer());
  ASSERT_TRUE(expect.hasValue()) << path << ": first line must be `# DIFF: ...`";

  llvm::Expected<ParsedFile> parsed = parseFile(path);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  IRModule *a = parsed->find("A");
  IRModule *b = parsed->find("B");
  ASSERT_NE(a, nullptr) << path << ": no module A";
  ASSERT_NE(b, nullptr) << path << ": no module B";

  llvm::Optional<Mismatch> m = firstMismatch(*a, *b);
  if (expect->equal) {
    EXPECT_FALSE(m.hasValue()) << m->report();
    EXPECT_TRUE(structuralEqual(*a, *b));
    EXPECT_TRUE(structuralEqual(*b, *a));
    EXPECT_EQ(structuralHash(*a), structuralHash(*b));
    return;
  }
  ASSERT_TRUE(m.hasValue()) << path << ": expected a mismatch at " << expect->lhsPath;
  EXPECT_EQ(m->lhsPath, expect->lhsPath) << m->report();
  EXPECT_EQ(m->rhsPath, expect->rhsPath) << m->report();
  EXPECT_FALSE(structuralEqual(*a, *b));
  EXPECT_FALSE(structuralEqual(*b, *a));
  EXPECT_NE(structuralHash(*a), structuralHash(*b));
  std::string report = m->report();
  EXPECT_NE(report.find("caused by lhs at " + expect->lhsPath + ":\n"), std::string::npos);
  EXPECT_NE(report.find("\nand rhs at " + expect->rhsPath + ":\n"), std::string::npos);
}

TEST(DiffCorpusFiles, CorpusIsPresent) { EXPECT_GE(corpusFiles().size(), 20u); }

std::string testName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = llvm::sys::path::stem(info.param).str();
  for (char &c : name)
    if (!isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, DiffCorpus, ::testing::ValuesIn(corpusFiles()), testName);

} // namespace
