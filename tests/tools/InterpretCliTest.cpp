//===- tests/tools/InterpretCliTest.cpp - graft run --interpret ------------===//
//
// Runs the built `graft` binary with --interpret: the same outputs as the
// built program, and the exit codes of graft run (2 for bad input and for
// what the interpreter does not run, 1 for a runtime error).
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/wait.h>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

std::string writeTemp(const std::string &name, const std::string &text) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir() + "graft_" + info->name() + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const std::string kExamples = std::string(GRAFT_SOURCE_DIR) + "/examples/";

TEST(InterpretCli, PrintsWhatTheBuiltProgramPrints) {
  for (const char *example : {"dynamic_shape.py", "mlp.py", "transformer_block.py"}) {
    std::string args = kExamples + example + " --random --seed 7 --dim batch=3 --dim seq=5";
    Result built = graft("run " + args);
    Result interpreted = graft("run --interpret " + args);
    EXPECT_EQ(built.code, 0) << built.out;
    EXPECT_EQ(interpreted.code, 0) << interpreted.out;
    EXPECT_EQ(built.out, interpreted.out) << example;
  }
}

TEST(InterpretCli, ModulePicksOneModuleOfTheFile) {
  std::string two = writeTemp("two.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class First:
    @R.function
    def main(x: R.Tensor((2,), "int32")) -> R.Tensor((2,), "int32"):
        return R.add(x, x)

@I.ir_module
class Second:
    @R.function
    def main(x: R.Tensor((2,), "int32")) -> R.Tensor((2,), "int32"):
        return R.multiply(x, x)
)");
  std::string inputs = " --random --seed 3";
  for (const char *name : {"First", "Second"}) {
    Result built = graft("run " + two + " --module " + name + inputs);
    Result interpreted = graft("run --interpret " + two + " --module " + name + inputs);
    EXPECT_EQ(built.code, 0) << built.out;
    EXPECT_EQ(interpreted.code, 0) << interpreted.out;
    EXPECT_EQ(built.out, interpreted.out) << name;
  }
  EXPECT_NE(graft("run --interpret " + two + " --module First" + inputs).out,
            graft("run --interpret " + two + " --module Second" + inputs).out);
  Result none = graft("run --interpret " + two + inputs);
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.out.find("pick one with --module"), std::string::npos) << none.out;
}

TEST(InterpretCli, ExitCodes) {
  Result r = graft("run --interpret " + kExamples + "call_tir.py --random --dim n=2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("is not supported by the interpreter"), std::string::npos) << r.out;

  r = graft("run --interpret " + kExamples + "mlp.py --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("symbolic dim 'batch' has no size"), std::string::npos) << r.out;

  std::string assertFile =
      writeTemp("assert.py", R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Prim("int64")) -> R.Prim("int64"):
        v = T.int64()
        y = R.match_cast(x, R.Prim(value=v))
        _ = R.assert_op(R.prim_value(v < 0), y, format="x is {}")
        return y
)");
  r = graft("run --interpret " + assertFile + " --random --seed 1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("graft run: error: binding '_' of function 'main': x is "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(graft("run " + assertFile + " --random --seed 1").code, 1);

  r = graft("run --interpret " + kExamples + "mlp.py --dump");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--interpret takes none of --dump, --repeat, --profile"), std::string::npos)
      << r.out;
}

TEST(ReduceCli, UsageAndOutput) {
  Result r = graft("reduce " + kExamples + "mlp.py");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("graft reduce: error: give -p PIPELINE and --match TEXT, or --differential"),
            std::string::npos)
      << r.out;
  r = graft("reduce " + kExamples + "mlp.py -p dead-code-elimination --match nothing");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("the pipeline does not fail on the input"), std::string::npos) << r.out;

  std::string input = writeTemp("in.py", "");
  r = graft("gen --seed 3 --size 25 > " + input);
  ASSERT_EQ(r.code, 0) << r.out;
  std::string out = writeTemp("reduced.py", "");
  r = graft("reduce " + input + " -p test-drop-binding --match 'is not well-formed' -o " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("graft reduce: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" lines after "), std::string::npos) << r.out;
  r = graft("test " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 passed, 0 failed"), std::string::npos) << r.out;
}

/// R.layout_transform end to end: graft build, graft run of the executable,
/// of the source and --interpret agree on a padded split and NCHW ->
/// NCHW4c; a map that sends two elements to one is a runtime error (exit 1)
/// naming the kernel.
TEST(InterpretCli, LayoutTransformBuildsRunsAndInterprets) {
  std::string src = writeTemp("lt.py", R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function
    def main():
        x = R.const([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "float32")
        y = R.layout_transform(x, index_map=lambda i: (i // 4, i % 4), pad_value=-1.5)
        c = R.reshape(R.arange(0, 6, 1, dtype="int32"), (1, 6, 1, 1))
        z = R.layout_transform(c, index_map=lambda n, c, h, w: (n, c // 4, h, w, c % 4))
        return (y, z)
)");
  std::string exe = ::testing::TempDir() + "graft_lt.vmexe";
  Result b = graft("build " + src + " -o " + exe);
  ASSERT_EQ(b.code, 0) << b.out;
  Result run = graft("run " + exe), fromSource = graft("run " + src),
         interpreted = graft("run --interpret " + src);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("float32 [2, 4] [0, 1, 2, 3, 4, 5, -1.5, -1.5]"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("int32 [1, 2, 1, 1, 4] [0, 1, 2, 3, 4, 5, 0, 0]"), std::string::npos)
      << run.out;
  EXPECT_EQ(fromSource.out, run.out);
  EXPECT_EQ(interpreted.out, run.out);

  std::string dup = writeTemp("dup.py", R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function
    def main():
        x = R.const([1, 2, 3, 4], "int32")
        return R.layout_transform(x, index_map=lambda i: (i // 2,))
)");
  for (const char *mode : {"run ", "run --interpret "}) {
    Result r = graft(mode + dup);
    EXPECT_EQ(r.code, 1) << mode << r.out;
    EXPECT_NE(r.out.find("graft.layout_transform: the index map sends two input indices to "
                         "output index [0] (the second is [1]); it must be injective"),
              std::string::npos)
        << mode << r.out;
  }
}

} // namespace
