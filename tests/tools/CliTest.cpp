//===- tests/tools/CliTest.cpp - The graft command line, end to end ---------===//
//
// Runs the built `graft` binary and checks exit codes and messages (docs/cli.md).
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

std::string src(const std::string &rel) { return std::string(GRAFT_SOURCE_DIR) + "/" + rel; }

/// A fresh path ending in `name` (ctest runs tests in parallel processes,
/// and other checkouts may run the same tests at once).
std::string tempPath(const std::string &name) {
  llvm::SmallString<128> path;
  llvm::StringRef file(name);
  if (llvm::sys::fs::createTemporaryFile("graft-cli-" + file.rsplit('.').first,
                                         file.rsplit('.').second, path))
    ADD_FAILURE() << "cannot create a temporary file for " << name;
  return std::string(path);
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = tempPath(name);
  std::ofstream(path) << text;
  return path;
}

const char *kTwoModules = R"(
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        z: R.Tensor((4,), dtype="float32") = R.multiply(y, x)
        return z

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        z: R.Tensor((4,), dtype="float32") = R.add(y, x)
        return z
)";

TEST(Cli, NoCommandIsUsageError) { EXPECT_EQ(graft("").code, 2); }

TEST(Cli, UnknownOptionIsUsageError) { EXPECT_EQ(graft("print --bogus x.py").code, 2); }

TEST(Cli, UnknownCommandIsOneLineListingTheCommands) {
  Result r = graft("draw x.py -o y");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.find("graft: error: unknown command 'draw'; commands: "), 0u) << r.out;
  EXPECT_NE(r.out.find("diff, difftest, gen, opt, passes, print"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", test, verify, viz\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "more than one line: " << r.out;
}

TEST(Cli, UnknownFlagIsOneLineWithTheNearestFlag) {
  Result r = graft("opt --verfy-each " + src("examples/mlp.py"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "graft opt: error: unknown option '--verfy-each'; did you mean "
                   "'--verify-each'?\n");
}

TEST(Cli, MissingFile) {
  Result r = graft("print /nonexistent/file.py");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("/nonexistent/file.py"), std::string::npos) << r.out;
}

TEST(Cli, PrintExampleRoundTrips) {
  Result first = graft("print " + src("examples/mlp.py"));
  ASSERT_EQ(first.code, 0) << first.out;
  std::string printed = writeTemp("printed.py", first.out);
  Result second = graft("print " + printed);
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_EQ(first.out, second.out);
  EXPECT_EQ(graft("diff " + src("examples/mlp.py") + " " + printed).code, 0);
}

TEST(Cli, DiffNeedsOneModule) {
  std::string path = writeTemp("two.py", kTwoModules);
  Result r = graft("diff " + path + " " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("holds modules Before, Expected: pick one with --module"), std::string::npos)
      << r.out;
}

TEST(Cli, DiffReportsFirstMismatchPath) {
  std::string path = writeTemp("two.py", kTwoModules);
  Result r = graft("diff " + path + " " + path + " --module-a Before --module-b Expected");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("functions[\"main\"].body.blocks[0].bindings[1].value"), std::string::npos)
      << r.out;
  EXPECT_EQ(graft("diff " + path + " " + path + " --module-a Before --module-b Before").code, 0);
}

TEST(Cli, VerifyReportsViolation) {
  std::string path = writeTemp("bad.py", R"(
@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format=R.str("x"))
        return x
)");
  Result r = graft("verify " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out;
  // check_well_formed=False opts out everywhere but in `graft verify`.
  EXPECT_EQ(graft("print " + path).code, 0);
}

TEST(Cli, OptUnknownPass) {
  Result r = graft("opt " + src("examples/mlp.py") + " -p no-such-pass");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown pass 'no-such-pass'"), std::string::npos) << r.out;
}

TEST(Cli, MisspeltPassOptionNamesItAndWhatThePassAccepts) {
  Result r =
      graft("opt " + src("examples/mlp.py") + " -p \"dead-code-elimination{entry-function=main}\"");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("error: pass 'dead-code-elimination' has no option 'entry-function'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: pass 'dead-code-elimination' accepts: entry-functions (a "
                       "comma-separated list)"),
            std::string::npos)
      << r.out;
  // A pass without options says so.
  Result none = graft("opt " + src("examples/mlp.py") + " -p \"to-non-dataflow{x=1}\"");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.out.find("note: pass 'to-non-dataflow' takes no options"), std::string::npos)
      << none.out;
}

TEST(Cli, BadPassOptionValueSaysWhatItExpects) {
  Result r = graft("opt " + src("examples/mlp.py") + " -p \"vm-shape-lower{emit-err-ctx=yes}\"");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("option 'emit-err-ctx' of pass 'vm-shape-lower' expects true or false, "
                       "got 'yes'"),
            std::string::npos)
      << r.out;
}

TEST(Cli, VerifyEachNamesTheCulprit) {
  std::string repro = tempPath("repro.py");
  Result r = graft("opt " + src("examples/mlp.py") + " -p test-drop-binding --reproducer " + repro);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(
      r.out.find("IR is not well-formed after pass 'test-drop-binding': DataflowVar 'h' is used "
                 "in function 'main' but not defined"),
      std::string::npos)
      << r.out;
  // The reproducer replays the same failure.
  Result replay = graft("opt " + repro);
  EXPECT_EQ(replay.code, 1);
  EXPECT_NE(replay.out.find("after pass 'test-drop-binding'"), std::string::npos) << replay.out;
  // Without verify-each the broken IR is printed.
  EXPECT_EQ(graft("opt " + src("examples/mlp.py") + " -p test-drop-binding --no-verify-each").code,
            0);
}

TEST(Cli, PassesListHidesTestPasses) {
  Result r = graft("passes");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.find("test-drop-binding"), std::string::npos) << r.out;
  Result all = graft("passes --all");
  EXPECT_NE(all.out.find("test-drop-binding"), std::string::npos) << all.out;
}

TEST(Cli, RunOfHandWrittenTIRIsBadInput) {
  Result r = graft("run " + src("examples/call_tir.py") + " --random --dim n=2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("codegen: PrimFunc 'add_one' has a hand-written TIR body"),
            std::string::npos)
      << r.out;
}

} // namespace
