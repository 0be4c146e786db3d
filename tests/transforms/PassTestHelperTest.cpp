//===- tests/transforms/PassTestHelperTest.cpp - The C++ pass-test helper ---===//

#include "pass/PassTest.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const char *kModule = R"(
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        z = R.multiply(y, x)
        return z
)";

TEST(PassTestHelper, ExpectedErrorPasses) {
  std::string text = std::string("# PIPELINE: test-drop-binding\n"
                                 "# EXPECT-ERROR: IR is not well-formed after pass "
                                 "'test-drop-binding'\n") +
                     kModule;
  EXPECT_EQ(runPassTestText(text), "");
}

TEST(PassTestHelper, WrongExpectedErrorFails) {
  std::string text =
      std::string("# PIPELINE: test-drop-binding\n# EXPECT-ERROR: something else\n") + kModule;
  std::string report = runPassTestText(text);
  EXPECT_NE(report.find("expected an error containing 'something else', got:"), std::string::npos)
      << report;
}

TEST(PassTestHelper, DifferenceIsReportedWithPath) {
  // canonicalize-bindings leaves this Before unchanged; Expected differs in one op.
  std::string text = "# PIPELINE: canonicalize-bindings\n" + std::string(kModule) + R"(
@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        z = R.add(y, x)
        return z
)";
  std::string report = runPassTestText(text);
  EXPECT_NE(report.find("output differs from Expected"), std::string::npos) << report;
  EXPECT_NE(report.find("functions[\"main\"].body.blocks[0].bindings[1].value.op"),
            std::string::npos)
      << report;
}

TEST(PassTestHelper, MissingPipelineLine) {
  EXPECT_EQ(runPassTestText(kModule), "has no '# PIPELINE:' line");
}

TEST(PassTestHelper, ParseErrorIsReported) {
  std::string report = runPassTestText("# PIPELINE: x\n@I.ir_module\nclass Before(:\n");
  EXPECT_EQ(report.rfind("does not parse:", 0), 0u) << report;
}

} // namespace
