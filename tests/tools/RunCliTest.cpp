//===- tests/tools/RunCliTest.cpp - graft build and graft run, end to end --===//
//
// Runs the built `graft` binary: build, run with .npy inputs and outputs,
// --random, --dump, --repeat, --profile, and every exit-code rule of run with
// its message.
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"
#include "vm/Npy.h"
#include "vm/Serialize.h"
#include "vm/Value.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

/// A fresh directory of this process's own: ctest runs tests in parallel
/// processes, and other checkouts may run the same tests at once.
const std::string &tempDir() {
  static const std::string dir = [] {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createUniqueDirectory("graft-runcli", path))
      ADD_FAILURE() << "cannot create a temporary directory";
    return std::string(path) + "/";
  }();
  return dir;
}

/// A path of this test's own.
std::string tempPath(const std::string &name) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  return tempDir() + info->test_suite_name() + "_" + info->name() + "_" + name;
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Writes a .npy file of `data` with `dtype` and `shape`.
template <typename T>
std::string writeNpy(const std::string &name, DLDataType dtype, std::vector<int64_t> shape,
                     std::vector<T> data) {
  DLTensor t{};
  t.data = data.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int32_t>(shape.size());
  t.dtype = dtype;
  t.shape = shape.data();
  std::string path = tempPath(name);
  llvm::Error err = graft::vm::writeNpy(path, t);
  EXPECT_FALSE(bool(err));
  llvm::consumeError(std::move(err));
  return path;
}

template <typename T>
std::vector<T> npyValues(const std::string &path, std::string *dtype, std::vector<int64_t> *shape) {
  auto a = graft::vm::readNpy(path);
  if (!a) {
    ADD_FAILURE() << llvm::toString(a.takeError());
    return {};
  }
  *dtype = graft::vm::dtypeStr(a->dtype);
  *shape = a->shape;
  std::vector<T> out(a->data.size() / sizeof(T));
  std::memcpy(out.data(), a->data.data(), out.size() * sizeof(T));
  return out;
}

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDataType kI32{kDLInt, 32, 1};
constexpr DLDataType kI64{kDLInt, 64, 1};
constexpr DLDataType kBool{6, 8, 1};

const char *kProgram = R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(c: R.Prim("bool"), x: R.Tensor(("n", 2), "float32"), y: R.Tensor(("n", 2), "float32"), s: R.Shape(["n", 3])) -> R.Tuple(R.Tensor(("n", 2), "float32"), R.Tuple(R.Shape(["n", 3]), R.Prim("int64"))):
        n = T.int64()
        R.assert_op(c, x, format="c is false for {}")
        y2 = R.call_dps_packed("graft.add", (x, y), out_sinfo=R.Tensor((n, 2), "float32"))
        return (y2, (s, R.prim_value(n + 1)))
)";

class RunCli : public ::testing::Test {
protected:
  void SetUp() override {
    source = writeTemp("program.py", kProgram);
    exe = tempPath("program.gexe");
    Result r = graft("build " + source + " -o " + exe);
    ASSERT_EQ(r.code, 0) << r.out;
    c = writeNpy<uint8_t>("c.npy", kBool, {}, {1});
    x = writeNpy<float>("x.npy", kF32, {2, 2}, {1, 2, 3, 4});
    y = writeNpy<float>("y.npy", kF32, {2, 2}, {10, 20, 30, 40});
    s = writeNpy<int64_t>("s.npy", kI64, {2}, {2, 3});
  }
  std::string inputs() const {
    return " --input c=" + c + " --input x=" + x + " --input y=" + y + " --input s=" + s;
  }

  std::string source, exe, c, x, y, s;
};

TEST_F(RunCli, PrintsOutputs) {
  Result r = graft("run " + exe + inputs());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "output_0: float32 [2, 2] [11, 22, 33, 44]\n"
                   "output_1_0: shape [2, 3]\n"
                   "output_1_1: int64 3\n");
}

TEST_F(RunCli, InstructionAndMemoryLimits) {
  // The limits the program fits in change nothing.
  Result r = graft("run " + exe + inputs() + " --max-instructions 100 --max-memory 65536");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("output_0: float32 [2, 2] [11, 22, 33, 44]\n", 0), 0u) << r.out;
  r = graft("run " + exe + inputs() + " --max-instructions 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("in function 'main' at instruction 2: the budget of 2 instructions per "
                       "call is spent (VMOptions::maxInstructions)"),
            std::string::npos)
      << r.out;
  r = graft("run " + exe + inputs() + " --max-memory 8");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("refused: 0 of the limit of 8 bytes are in use "
                       "(VMOptions::maxMemoryBytes)"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, ParameterOfUnknownDtype) {
  // vm-shape-lower checks R.Tensor(ndim=1) with R.dtype("void"), which
  // takes any dtype (the check refused every tensor before).
  std::string src = writeTemp("nodtype.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=1)) -> R.Tensor(ndim=1):
        return x
)");
  std::string v = writeNpy<int32_t>("v.npy", kI32, {3}, {7, 8, 9});
  Result r = graft("run " + src + " --input x=" + v);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "output: int32 [3] [7, 8, 9]\n");
}

TEST_F(RunCli, WritesNpyOutputs) {
  std::string dir = tempPath("outdir");
  Result r = graft("run " + exe + inputs() + " --out " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  std::string dtype;
  std::vector<int64_t> shape;
  EXPECT_EQ(npyValues<float>(dir + "/output_0.npy", &dtype, &shape),
            (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(dtype, "float32");
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(npyValues<int64_t>(dir + "/output_1_0.npy", &dtype, &shape),
            (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(dtype, "int64");
  EXPECT_EQ(shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(npyValues<int64_t>(dir + "/output_1_1.npy", &dtype, &shape), std::vector<int64_t>{3});
  EXPECT_TRUE(shape.empty());
}

TEST_F(RunCli, SingleOutputIsOutputNpy) {
  std::string src = writeTemp("single.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), "int32")) -> R.Tensor((3,), "int32"):
        y = R.call_dps_packed("graft.negative", (x,), out_sinfo=R.Tensor((3,), "int32"))
        return y
)");
  std::string in = writeNpy<int32_t>("i.npy", kI32, {3}, {1, -2, 7});
  std::string dir = tempPath("single_out");
  Result r = graft("run " + src + " --input x=" + in + " --out " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  std::string dtype;
  std::vector<int64_t> shape;
  EXPECT_EQ(npyValues<int32_t>(dir + "/output.npy", &dtype, &shape),
            (std::vector<int32_t>{-1, 2, -7}));
  EXPECT_EQ(dtype, "int32");
}

TEST_F(RunCli, SourceFileRunsLikeItsExecutable) {
  Result fromExe = graft("run " + exe + inputs());
  Result fromSource = graft("run " + source + inputs());
  ASSERT_EQ(fromSource.code, 0) << fromSource.out;
  EXPECT_EQ(fromSource.out, fromExe.out);
}

TEST_F(RunCli, RandomIsSeeded) {
  Result a = graft("run " + exe + " --random --seed 3 --dim n=4 --input c=" + c);
  Result b = graft("run " + exe + " --random --seed 3 --dim n=4 --input c=" + c);
  Result other = graft("run " + exe + " --random --seed 4 --dim n=4 --input c=" + c);
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, other.out);
  EXPECT_NE(a.out.find("output_0: float32 [4, 2] ["), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("output_1_0: shape [4, 3]"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("output_1_1: int64 5"), std::string::npos) << a.out;
}

TEST_F(RunCli, RandomFloatsAreInRange) {
  std::string dir = tempPath("random_out");
  Result r = graft("run " + exe + " --random --dim n=64 --input c=" + c + " --out " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  std::string dtype;
  std::vector<int64_t> shape;
  // x + y with both in [-1, 1).
  for (float v : npyValues<float>(dir + "/output_0.npy", &dtype, &shape)) {
    EXPECT_GE(v, -2.0f);
    EXPECT_LT(v, 2.0f);
  }
}

TEST_F(RunCli, RandomNeedsEverySymbolicDim) {
  Result r = graft("run " + exe + " --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'x' dim 0: symbolic dim 'n' has no size (give --dim n=SIZE)"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, MissingInput) {
  Result r = graft("run " + exe + " --input c=" + c + " --input x=" + x);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("missing input for parameter 'y'"), std::string::npos) << r.out;
}

TEST_F(RunCli, UnreadableInput) {
  std::string bad = writeTemp("bad.npy", "not numpy");
  Result r = graft("run " + exe + inputs() + " --input x=" + bad);
  EXPECT_EQ(r.code, 2); // --input x given twice
  EXPECT_NE(r.out.find("--input gives 'x' twice"), std::string::npos) << r.out;
  r = graft("run " + exe + " --input c=" + c + " --input x=" + bad + " --input y=" + y +
            " --input s=" + s);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'x': npy: " + bad + ": npy: not a .npy file"), std::string::npos)
      << r.out;
  r = graft("run " + exe + " --input c=" + c + " --input x=/nonexistent.npy --input y=" + y +
            " --input s=" + s);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'x': npy: cannot read '/nonexistent.npy'"), std::string::npos)
      << r.out;
}

TEST_F(RunCli, UnknownInputName) {
  Result r = graft("run " + exe + inputs() + " --input z=" + x);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--input z: function 'main' has no parameter 'z' (parameters: c, x, y, s)"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, WrongDtype) {
  std::string xi = writeNpy<int32_t>("xi.npy", kI32, {2, 2}, {1, 2, 3, 4});
  Result r = graft("run " + exe + " --input c=" + c + " --input x=" + xi + " --input y=" + y +
                   " --input s=" + s);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'x': expected dtype float32 but got int32"), std::string::npos)
      << r.out;
}

TEST_F(RunCli, WrongStaticDim) {
  std::string s4 = writeNpy<int64_t>("s4.npy", kI64, {2}, {2, 4});
  Result r = graft("run " + exe + " --input c=" + c + " --input x=" + x + " --input y=" + y +
                   " --input s=" + s4);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 's' dim 1: expected size 3 but got 4"), std::string::npos)
      << r.out;
}

TEST_F(RunCli, SymbolicDimBoundTwice) {
  std::string y3 = writeNpy<float>("y3.npy", kF32, {3, 2}, {1, 2, 3, 4, 5, 6});
  Result r = graft("run " + exe + " --input c=" + c + " --input x=" + x + " --input y=" + y3 +
                   " --input s=" + s);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'y' dim 0: symbolic dim 'n' is 3 here but 2 in parameter 'x' "
                       "dim 0"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, ShapeAndPrimInputsMustFit) {
  std::string sf = writeNpy<float>("sf.npy", kF32, {2}, {2, 3});
  Result r = graft("run " + exe + " --input c=" + c + " --input x=" + x + " --input y=" + y +
                   " --input s=" + sf);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 's' (a shape) takes a 1-d int64 .npy"), std::string::npos)
      << r.out;
  std::string ci = writeNpy<int64_t>("ci.npy", kI64, {}, {1});
  r = graft("run " + exe + " --input c=" + ci + " --input x=" + x + " --input y=" + y +
            " --input s=" + s);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("parameter 'c' (R.Prim bool) takes a 0-d bool .npy"), std::string::npos)
      << r.out;
}

TEST_F(RunCli, FailingAssertIsExitOneWithTheCallStack) {
  std::string off = writeNpy<uint8_t>("off.npy", kBool, {}, {0});
  Result r = graft("run " + exe + " --input c=" + off + " --input x=" + x + " --input y=" + y +
                   " --input s=" + s);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("graft run: error: vm.builtin.assert: c is false for tensor<float32[2, 2]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("VM call stack (innermost first):\n  in function 'main' at instruction"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, DamagedExecutable) {
  std::string bytes = readFile(exe);
  ASSERT_GT(bytes.size(), 64u);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x5a;
  Result r = graft("run " + writeTemp("flipped.gexe", flipped) + inputs());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("invalid executable: checksum mismatch"), std::string::npos) << r.out;
  r = graft("run " + writeTemp("truncated.gexe", bytes.substr(0, bytes.size() - 9)) + inputs());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("invalid executable:"), std::string::npos) << r.out;
  r = graft("run " + writeTemp("header.gexe", bytes.substr(0, 12)) + inputs());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("invalid executable:"), std::string::npos) << r.out;
}

/// Rewrites the header's checksum to match the payload, so that only the
/// section parsers can object to a change.
void reseal(std::string &bytes) {
  uint64_t sum = graft::vm::fnv1a64(llvm::StringRef(bytes).drop_front(graft::vm::kExecHeaderBytes));
  for (int i = 0; i < 8; ++i)
    bytes[24 + i] = static_cast<char>(sum >> (8 * i));
}

/// `bytes` with `from` replaced by `to` (same length), resealed.
std::string patchPayload(std::string bytes, const std::string &from, const std::string &to) {
  size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos || from.size() != to.size())
    return bytes;
  bytes.replace(at, from.size(), to);
  reseal(bytes);
  return bytes;
}

const char *kFusedProgram = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            y = R.add(x, x)
            z = R.nn.relu(y)
            R.output(z)
        return z
)";

TEST(RunCliDamaged, FusedProgramIsRefusedOnLoad) {
  std::string exe = tempPath("fused.gexe");
  Result r = graft("build " + writeTemp("fused.py", kFusedProgram) + " -o " + exe);
  ASSERT_EQ(r.code, 0) << r.out;
  std::string damaged = patchPayload(readFile(exe), "nn.relu", "nn.relx");
  r = graft("run " + writeTemp("damaged.gexe", damaged) + " --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("invalid executable: kernel source 'graft.fused.fused_add_nn_relu': fused "
                       "kernel program, line 4: unknown op 'nn.relx'"),
            std::string::npos)
      << r.out;
}

TEST(RunCliDamaged, ResealedFlipsAreExitTwoOrRunNeverCrash) {
  std::string exe = tempPath("fused.gexe");
  ASSERT_EQ(graft("build " + writeTemp("fused.py", kFusedProgram) + " -o " + exe).code, 0);
  std::string bytes = readFile(exe);
  size_t refused = 0;
  for (size_t at = graft::vm::kExecHeaderBytes; at < bytes.size(); at += bytes.size() / 24) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0xff);
    reseal(flipped);
    Result r = graft("run " + writeTemp("flipped.gexe", flipped) + " --random");
    // 2: refused on load; 0 or 1: it loaded and ran (a flipped name or value).
    EXPECT_TRUE(r.code == 0 || r.code == 1 || r.code == 2) << "flip at " << at << ": " << r.out;
    if (r.code == 2) {
      EXPECT_NE(r.out.find("graft run: error: "), std::string::npos) << r.out;
      ++refused;
    }
  }
  EXPECT_GT(refused, 12u);
}

TEST(RunCliDump, FusedKernelsShowTheirProgram) {
  Result r = graft("run " + writeTemp("fused.py", kFusedProgram) + " --dump");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(" graft.fused.fused_add_nn_relu: fused kernel (kernel source)\n"
                       "      fused 2\n"
                       "      input %0 float32 1\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("unresolved"), std::string::npos) << r.out;
}

TEST(RunCliDamaged, UnknownPackedFunctionIsExitTwo) {
  std::string exe = tempPath("unknown.gexe");
  Result r = graft("build " + writeTemp("unknown.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.call_dps_packed("my.unknown_kernel", (x,), out_sinfo=R.Tensor((2,), "float32"))
        return y
)") + " -o " + exe);
  ASSERT_EQ(r.code, 0) << r.out;
  r = graft("run " + exe + " --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(": cannot load the executable: packed function 'my.unknown_kernel' is not "
                       "registered"),
            std::string::npos)
      << r.out;
}

TEST(RunCliModule, RunPicksAModuleOfASourceFile) {
  std::string two = std::string(kFusedProgram) + "\n\n@I.ir_module\nclass Other:\n    @R.function\n"
                                                 "    def main(x: R.Tensor((2,), \"int32\")) -> "
                                                 "R.Tensor((2,), \"int32\"):\n        return x\n";
  std::string path = writeTemp("two.py", two);
  Result r = graft("run " + path + " --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("holds modules Module, Other: pick one with --module"), std::string::npos)
      << r.out;
  r = graft("run " + path + " --module Other --random");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("output: int32 [2]", 0), 0u) << r.out;
  r = graft("run " + path + " --module Nope --random");
  EXPECT_EQ(r.code, 2);
  std::string exe = tempPath("module.gexe");
  ASSERT_EQ(graft("build " + path + " --module Module -o " + exe).code, 0);
  r = graft("run " + exe + " --module Module --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(
      r.out.find("--module picks a module of a source file, but " + exe + " is an executable"),
      std::string::npos)
      << r.out;
}

TEST_F(RunCli, UnknownFunction) {
  Result r = graft("run " + exe + " --fn nope --random");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no function 'nope' in"), std::string::npos) << r.out;
}

TEST_F(RunCli, Dump) {
  Result r = graft("run " + exe + " --dump");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("; graft VM executable: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("function @0 main(c, x, y, s) registers="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    param x: tensor float32 [n, 2] cpu:0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    param s: shape [n, 3]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("call vm.builtin.assert in: %0, c["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel source compute_symbolic_expr"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel table:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" graft.add: kernel, inputs 2, attrs [], outputs 1\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" vm.builtin.assert: builtin\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" compute_symbolic_expr: scalar program (kernel source)\n"),
            std::string::npos)
      << r.out;
}

TEST_F(RunCli, RepeatAndProfile) {
  Result r = graft("run " + exe + inputs() + " --repeat 3 --profile");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("3 runs after one warm-up: min "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("profile (3 runs): time per kernel and builtin"), std::string::npos)
      << r.out;
  // graft.add ran once per timed run.
  EXPECT_NE(r.out.find("graft.add                                       3 "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("output_1_1: int64 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time outside kernels: median "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" us as timed (with the profiler's "), std::string::npos) << r.out;
}

TEST_F(RunCli, UnknownDevice) {
  Result r = graft("run " + exe + inputs() + " --device tpu");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown device 'tpu' (devices: cpu, cuda)"), std::string::npos) << r.out;
}

TEST(BuildCli, NeedsAnOutput) {
  Result r = graft("build " + writeTemp("b.py", kProgram));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no output file (use -o OUT.gexe)"), std::string::npos) << r.out;
}

TEST(BuildCli, CreatesTheOutputsFolders) {
  std::string exe = tempPath("new") + "/deeper/b.gexe";
  Result r = graft("build " + writeTemp("b.py", kProgram) + " -o " + exe);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(readFile(exe).size(), 0u) << exe;
}

TEST(BuildCli, OutputUnderAFileIsBadInput) {
  std::string file = writeTemp("plain-file", "not a folder");
  Result r = graft("build " + writeTemp("b.py", kProgram) + " -o " + file + "/sub/b.gexe");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("graft build: error: cannot create the folder '" + file + "/sub' of '" +
                       file + "/sub/b.gexe': Not a directory"),
            std::string::npos)
      << r.out;
  // The file itself as the folder: nothing to create, writing fails.
  r = graft("build " + writeTemp("b.py", kProgram) + " -o " + file + "/b.gexe");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot write '" + file + "/b.gexe': Not a directory"), std::string::npos)
      << r.out;
}

TEST(BuildCli, SharesTheDebuggingFlagsOfOpt) {
  Result r = graft("build " + writeTemp("b.py", kProgram) + " -o " + tempPath("b.gexe") +
                   " --print-after=vm-shape-lower");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("IR After vm-shape-lower"), std::string::npos) << r.out;
}

TEST(BuildCli, UnknownTarget) {
  Result r =
      graft("build " + writeTemp("b.py", kProgram) + " -o " + tempPath("b.gexe") + " --target tpu");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown target 'tpu'"), std::string::npos) << r.out;
}

TEST(BuildCli, UnloweredOpIsBadInput) {
  Result r = graft("build " +
                   writeTemp("unlowered.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.shape_to_tensor(R.shape([2]))
        return x
)") + " -o " + tempPath("u.gexe"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(":7:9: error: codegen: function 'main': R.shape_to_tensor must be lowered "
                       "before code generation"),
            std::string::npos)
      << r.out;
}

TEST(BuildCli, DeviceHintsBuildAndRunAsIdentities) {
  // legalize-ops forwards R.hint_on_device's input (docs/passes.md): the
  // built program computes what the same program without hints does.
  const char *hinted = R"(from tvm.script import ir as I, relax as R
import tvm

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        a = R.hint_on_device(x, tvm.cpu())
        b = R.multiply(a, a)
        c = R.hint_on_device(b, tvm.cuda(0))
        d = R.hint_on_device(c, R.device(1, 0), "global")
        e = R.add(d, x)
        return e
)";
  const char *plain = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        b = R.multiply(x, x)
        e = R.add(b, x)
        return e
)";
  std::string exe = tempPath("hint.gexe");
  Result built = graft("build " + writeTemp("hint.py", hinted) + " -o " + exe);
  ASSERT_EQ(built.code, 0) << built.out;
  EXPECT_EQ(graft("run " + exe + " --dump").out.find("hint_on_device"), std::string::npos);
  Result ran = graft("run " + exe + " --random --seed 7");
  ASSERT_EQ(ran.code, 0) << ran.out;
  Result want = graft("run " + writeTemp("plain.py", plain) + " --interpret --random --seed 7");
  ASSERT_EQ(want.code, 0) << want.out;
  EXPECT_EQ(ran.out, want.out);
  EXPECT_EQ(ran.out.rfind("output: float32 [3] [", 0), 0u) << ran.out;
}

TEST(BuildCli, TensorFieldsBuildAndRun) {
  // The relax.inspect ops the struct info cannot answer run as
  // vm.builtin.tensor_<field>; build and interpreter read the same values.
  std::string src = writeTemp("inspect.py", R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "int16")):
        A = R.match_cast(x, R.Tensor(ndim=2))
        B = R.match_cast(x, R.Tensor)
        a = B.dtype.type_code
        b = B.dtype.bits
        c = B.dtype.lanes
        d = B.ndim
        e = A.shape[0]
        f = A.strides[0]
        g = A.strides[1]
        h = B.byte_offset
        i = B.elem_offset
        return (a, b, c, d, e, f, g, h, i)
)");
  std::string exe = tempPath("inspect.gexe");
  Result built = graft("build " + src + " -o " + exe);
  ASSERT_EQ(built.code, 0) << built.out;
  Result ran = graft("run " + exe + " --random --dim n=5");
  ASSERT_EQ(ran.code, 0) << ran.out;
  EXPECT_EQ(ran.out, "output_0: int64 0\noutput_1: int64 16\noutput_2: int64 1\n"
                     "output_3: int64 2\noutput_4: int64 5\noutput_5: int64 3\n"
                     "output_6: int64 1\noutput_7: int64 0\noutput_8: int64 0\n");
  Result interpreted = graft("run " + src + " --interpret --random --dim n=5");
  ASSERT_EQ(interpreted.code, 0) << interpreted.out;
  EXPECT_EQ(interpreted.out, ran.out);
}

TEST(BuildCli, TensorFieldAxisOutOfRangeIsARuntimeError) {
  Result r =
      graft("run " + writeTemp("inspect_axis.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        A = R.match_cast(x, R.Tensor)
        e = A.shape[5]
        return e
)") + " --random");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("vm.builtin.tensor_shape_i: axis 5 is outside the 2 dimensions of the "
                       "tensor"),
            std::string::npos)
      << r.out;
}

TEST(RunCliPrint, PrintRunsAsABuiltin) {
  std::string exe = tempPath("print.gexe");
  Result r = graft("build " + writeTemp("print.py", R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.print(x, R.prim_value(3), format="x={} n={} {{literal}}")
        return x
)") + " -o " + exe);
  ASSERT_EQ(r.code, 0) << r.out;
  r = graft("run " + exe + " --random");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("x=tensor<float32[2], cpu:0> n=3 {literal}\noutput: float32 [2] ", 0), 0u)
      << r.out;
  r = graft("run " + exe + " --dump");
  EXPECT_NE(r.out.find("call vm.builtin.print in: c["), std::string::npos) << r.out;
}

TEST(RunCliPrimValue, FloatPrimValuesBuildAndRun) {
  // vm-shape-lower once gave the float constant a heap slot nothing computed.
  Result r =
      graft("run " + writeTemp("fprim.py", R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32"), p: R.Prim(value=T.float64(0.5))) -> R.Tuple(R.Tensor((2,), "float32"), R.Prim(value=T.float64(0.5))):
        h = R.prim_value(T.float64(0.5))
        return (x, h)
)") + " --random --seed 3");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("output_1: float64 0.5\n"), std::string::npos) << r.out;
}

TEST(BuildCli, TwoModulesNeedModule) {
  std::string two = std::string(kProgram) + "\n\n@I.ir_module\nclass Other:\n    @R.function\n"
                                            "    def main(x: R.Tensor((2,), \"float32\")) -> "
                                            "R.Tensor((2,), \"float32\"):\n        return x\n";
  std::string path = writeTemp("two.py", two);
  Result r = graft("build " + path + " -o " + tempPath("t.gexe"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("holds modules Module, Other: pick one with --module"), std::string::npos)
      << r.out;
  r = graft("build " + path + " --module Other -o " + tempPath("t.gexe"));
  EXPECT_EQ(r.code, 0) << r.out;
}

} // namespace
