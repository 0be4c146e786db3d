//===- tests/analysis/VerifyCorpusTest.cpp - tests/verify/*.py --------------===//
//
// Each file of tests/verify holds one module that breaks exactly one
// well-formedness rule (or none). Its first line says what the verifier must
// answer: `# VERIFY: ok`, or `# VERIFY: <substring of the first violation>`.
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormed.h"

#include "text/Parser.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace graft;

namespace {

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::filesystem::path dir = std::filesystem::path(GRAFT_SOURCE_DIR) / "tests" / "verify";
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".py")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The expectation of the first line, or None when the line is missing.
llvm::Optional<std::string> expectation(llvm::StringRef text) {
  llvm::StringRef first = text.split('\n').first.trim();
  if (!first.consume_front("# VERIFY:"))
    return llvm::None;
  return first.trim().str();
}

std::string testName(const ::testing::TestParamInfo<std::string> &info) {
  std::string stem = std::filesystem::path(info.param).stem().string();
  for (char &c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return stem;
}

class VerifyCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(VerifyCorpus, FirstViolationMatches) {
  std::string text = readFile(GetParam());
  llvm::Optional<std::string> expected = expectation(text);
  ASSERT_TRUE(expected) << GetParam() << ": the first line must be `# VERIFY: ...`";

  llvm::Expected<ParsedFile> parsed = parseText(text, GetParam());
  if (!parsed) {
    std::string err;
    llvm::raw_string_ostream os(err);
    os << llvm::toString(parsed.takeError());
    FAIL() << GetParam() << " does not parse: " << os.str();
  }
  ASSERT_EQ(parsed->modules.size(), 1u) << "one module per file";
  std::vector<Violation> violations = verifyModule(*parsed->modules[0]);

  if (*expected == "ok") {
    for (const Violation &v : violations)
      ADD_FAILURE() << "unexpected violation: " << v.message;
    return;
  }
  ASSERT_FALSE(violations.empty()) << "expected a violation containing: " << *expected;
  EXPECT_NE(violations[0].message.find(*expected), std::string::npos)
      << "first violation: " << violations[0].message << "\nexpected to contain: " << *expected;
  // Parsed IR has locations: every violation points into the file.
  for (const Violation &v : violations)
    EXPECT_TRUE(v.loc.isValid()) << "violation without location: " << v.message;
}

INSTANTIATE_TEST_SUITE_P(Files, VerifyCorpus, ::testing::ValuesIn(corpusFiles()), testName);

TEST(VerifyCorpusFiles, CorpusIsNotEmpty) { EXPECT_GE(corpusFiles().size(), 20u); }

} // namespace
