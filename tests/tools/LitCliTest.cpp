//===- tests/tools/LitCliTest.cpp - graft opt --split-input-file, --verify-diagnostics ===//
//
// Exit codes and messages of the flags lit tests use (docs/testing.md); the
// lit suite (tests/lit) checks the same messages through FileCheck, these
// tests pin the exit codes that `not` cannot tell apart.
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

std::string writeTemp(const std::string &text) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("graft-lit-cli", "py", path))
    ADD_FAILURE() << "cannot create a temporary file";
  std::ofstream(std::string(path)) << text;
  return std::string(path);
}

const char *kOk = R"(from tvm.script import ir as I, relax as R


@R.function
def ok(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x
)";

/// Line 5 reads an undefined name.
const char *kUndefined = R"(from tvm.script import ir as I, relax as R


@R.function
def bad(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return R.add(x, nowhere)
)";

TEST(LitCli, SplitsRunOneByOneAndPrintWithTheSeparator) {
  std::string path = writeTemp(std::string(kOk) + "# -----\n" + kOk);
  Result r = graft("opt " + path + " --split-input-file -p to-non-dataflow");
  EXPECT_EQ(r.code, 0) << r.out;
  size_t first = r.out.find("def ok(");
  size_t sep = r.out.find("\n# -----\n");
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(sep, std::string::npos) << r.out;
  EXPECT_LT(first, sep);
  EXPECT_NE(r.out.find("def ok(", sep), std::string::npos) << r.out;
}

TEST(LitCli, AFailingSplitIsLocatedInTheFileAndTheOthersStillRun) {
  // kOk has 6 lines, the separator is line 7: the bad split's `return` is
  // line 7 + 6.
  std::string path = writeTemp(std::string(kOk) + "# -----\n" + kUndefined + "# -----\n" + kOk);
  Result r = graft("opt " + path + " --split-input-file -p to-non-dataflow");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(path + ":13:21: error: undefined name 'nowhere'"), std::string::npos)
      << r.out;
  size_t first = r.out.find("def ok(");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("def ok(", first + 1), std::string::npos) << r.out;
}

TEST(LitCli, MalformedSeparatorIsBadInput) {
  for (const char *ruler : {"#-----", "# ----", "# ------", "  # -----", "# ----- next"}) {
    std::string path = writeTemp(std::string(kOk) + ruler + "\n" + kOk);
    Result r = graft("opt " + path + " --split-input-file");
    EXPECT_EQ(r.code, 2) << ruler << "\n" << r.out;
    EXPECT_NE(r.out.find(path + ":7:"), std::string::npos) << ruler << "\n" << r.out;
    EXPECT_NE(r.out.find("error: malformed split separator: write '# -----' alone on its line, "
                         "at column 1"),
              std::string::npos)
        << ruler << "\n"
        << r.out;
  }
}

TEST(LitCli, EmptySplitIsBadInput) {
  for (const std::string &text : {std::string(kOk) + "# -----\n# -----\n" + kOk,
                                  "# -----\n" + std::string(kOk), std::string(kOk) + "# -----\n"}) {
    std::string path = writeTemp(text);
    Result r = graft("opt " + path + " --split-input-file");
    EXPECT_EQ(r.code, 2) << text << "\n" << r.out;
    EXPECT_NE(r.out.find("holds no code: two '# -----' lines in a row, or one at the start or end "
                         "of the file"),
              std::string::npos)
        << r.out;
  }
}

TEST(LitCli, UnreadableFileIsBadInput) {
  for (const char *flag : {"--split-input-file", "--verify-diagnostics"}) {
    Result r = graft(std::string("opt /nonexistent/graft-lit.py ") + flag);
    EXPECT_EQ(r.code, 2) << flag << "\n" << r.out;
    EXPECT_EQ(r.out, "graft: error: cannot read '/nonexistent/graft-lit.py': No such file or "
                     "directory\n")
        << flag;
  }
}

TEST(LitCli, UnwritableOutputIsBadInput) {
  std::string path = writeTemp(kOk);
  Result r = graft("opt " + path + " --split-input-file -o /nonexistent/out.py");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.find("graft: error: cannot write /nonexistent/out.py: "), 0u) << r.out;
}

TEST(LitCli, WithoutTheFlagASeparatorIsAComment) {
  std::string path = writeTemp(std::string(kOk) + "# -----\n");
  EXPECT_EQ(graft("opt " + path + " -p to-non-dataflow").code, 0);
}

TEST(LitCli, ExpectedDiagnosticsTurnAFailureIntoSuccess) {
  std::string text = kUndefined;
  text.insert(text.find("nowhere)") + 8, "  # expected-error {{undefined name 'nowhere'}}");
  std::string path = writeTemp(text);
  Result plain = graft("opt " + path);
  EXPECT_EQ(plain.code, 2) << plain.out;
  Result r = graft("opt " + path + " --verify-diagnostics");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

TEST(LitCli, MissingDiagnosticIsReportedAtItsComment) {
  std::string text = kOk;
  text.insert(text.find("return x") + 8, "  # expected-error {{never comes}}");
  std::string path = writeTemp(text);
  Result r = graft("opt " + path + " --verify-diagnostics");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(path + ":6:17: error: expected error \"never comes\" was not produced"),
            std::string::npos)
      << r.out;
  // The module itself is still printed.
  EXPECT_NE(r.out.find("def ok("), std::string::npos) << r.out;
}

TEST(LitCli, UnexpectedDiagnosticIsReportedWhereItIs) {
  std::string path = writeTemp(kUndefined);
  Result r = graft("opt " + path + " --verify-diagnostics");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(path + ":6:21: error: unexpected error: undefined name 'nowhere'"),
            std::string::npos)
      << r.out;
}

TEST(LitCli, WrongLineIsBothMissingAndUnexpected) {
  std::string text = kUndefined;
  text.insert(text.find("nowhere)") + 8, "  # expected-error@above {{undefined name 'nowhere'}}");
  std::string path = writeTemp(text);
  Result r = graft("opt " + path + " --verify-diagnostics");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("was not produced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unexpected error: undefined name 'nowhere'"), std::string::npos) << r.out;
}

TEST(LitCli, UnlocatedDiagnosticNeedsAtUnknown) {
  // A precondition failure names no line.
  std::string text = R"(from tvm.script import ir as I, relax as R


@R.function
def main(x: R.Tensor((4,), "float32")):
    a = R.add(x, x)
    b = R.add(a, a)
    return b
)";
  std::string path = writeTemp(text);
  Result r = graft("opt " + path + " -p kill-after-last-use --verify-diagnostics");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(path + ": error: unexpected error: pass kill-after-last-use needs function "
                              "'main' to be impure"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(unlocated: expect it with @unknown)"), std::string::npos) << r.out;

  std::string expecting =
      writeTemp(text + "# expected-error@unknown {{pass kill-after-last-use needs}}\n");
  Result ok = graft("opt " + expecting + " -p kill-after-last-use --verify-diagnostics");
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST(LitCli, MalformedDirectivesAreBadInput) {
  struct Case {
    const char *comment;
    const char *message;
  } cases[] = {
      {"# expected-error {{no closing brace}",
       "malformed directive; write '# expected-error "
       "{{MESSAGE}}' (or expected-note), optionally with "
       "@above, @below, @+N, @-N or @unknown after the kind"},
      {"# expected-error@sideways {{x}}", "malformed directive"},
      {"# expected-error {{ }}", "the expected message is empty"},
      {"# expected-error@+5 {{x}}", "@+5 points to line 12, outside lines 1-7 of this split"},
      {"# expected-error@below {{x}}", "@below: no line below it in this split"},
  };
  for (const Case &c : cases) {
    std::string path = writeTemp(std::string(kOk) + c.comment + "\n");
    Result r = graft("opt " + path + " --verify-diagnostics");
    EXPECT_EQ(r.code, 2) << c.comment << "\n" << r.out;
    EXPECT_NE(r.out.find(path + ":7:3: error: " + c.message), std::string::npos)
        << c.comment << "\n"
        << r.out;
  }
}

TEST(LitCli, ExpectedErrorInCodeIsRefused) {
  std::string text = kOk;
  text.insert(text.find("return x") + 8, " + expected-error {{x}}");
  std::string path = writeTemp(text);
  Result r = graft("opt " + path + " --verify-diagnostics");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("expected-error outside a comment"), std::string::npos) << r.out;
}

} // namespace
