//===- tests/cuda/RunCudaTest.cpp - graft build --target cuda, graft run --device cuda ===//
//
// The tool's CUDA rules, which hold with or without a GPU: the target is
// recorded in the executable and a device of another target is refused;
// without a CUDA device a CUDA run is exit 2 "no CUDA device". With a GPU,
// the examples that use only ops with CUDA kernels run on CUDA and give the
// CPU's outputs (within the kernels' bounds).
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"
#include "tests/tools/GraftProcess.h"

#include "vm/Npy.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>

namespace graft::cuda::test {
namespace {

/// Where the tool and the sources are: the build's paths, unless
/// GRAFT_BINARY and GRAFT_SOURCE_DIR say otherwise (tools/gpu-check.sh runs
/// this program on another machine).
std::string fromEnv(const char *name, const char *dflt) {
  const char *v = std::getenv(name);
  return v ? v : dflt;
}
const std::string kBinary = fromEnv("GRAFT_BINARY", GRAFT_BINARY);
const std::string kSourceDir = fromEnv("GRAFT_SOURCE_DIR", GRAFT_SOURCE_DIR);

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(kBinary, args); }

std::string tempPath(const std::string &name) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "graft_" + info->test_suite_name() + "_" + info->name() + "_" +
         name;
}

const std::string kMlp = kSourceDir + "/examples/mlp.py";

TEST(RunCuda, TargetIsRecordedAndChecked) {
  std::string cudaExe = tempPath("cuda.gexe"), cpuExe = tempPath("cpu.gexe");
  ASSERT_EQ(graft("build --target cuda " + kMlp + " -o " + cudaExe).code, 0);
  ASSERT_EQ(graft("build " + kMlp + " -o " + cpuExe).code, 0);
  Result dump = graft("run --dump " + cudaExe);
  EXPECT_NE(dump.out.find("; target: cuda\n"), std::string::npos) << dump.out;
  EXPECT_NE(dump.out.find("param x: tensor float32 [batch, 784] cuda:0"), std::string::npos);
  Result onCpu = graft("run " + cudaExe + " --random --dim batch=2");
  EXPECT_EQ(onCpu.code, 2);
  EXPECT_EQ(onCpu.out, "graft run: error: " + cudaExe +
                           " was built for target 'cuda' and cannot run on device 'cpu' (build "
                           "it with --target cpu)\n");
  Result onCuda = graft("run " + cpuExe + " --device cuda --random --dim batch=2");
  EXPECT_EQ(onCuda.code, 2);
  EXPECT_EQ(onCuda.out, "graft run: error: " + cpuExe +
                            " was built for target 'cpu' and cannot run on device 'cuda' (build "
                            "it with --target cuda)\n");
}

TEST(RunCuda, UnknownDeviceAndTarget) {
  Result run = graft("run " + kMlp + " --device tpu --random --dim batch=2");
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.out, "graft run: error: unknown device 'tpu' (devices: cpu, cuda)\n");
  Result build = graft("build --target tpu " + kMlp + " -o " + tempPath("x.gexe"));
  EXPECT_EQ(build.code, 2);
  EXPECT_NE(build.out.find("unknown target 'tpu' (supported: cpu, cuda)"), std::string::npos)
      << build.out;
}

/// Weights only (num_input 0): rewrite-cuda-graph makes a region of the
/// matmuls when graphs are on.
const char *kStaticChain = R"(from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.matmul(a, w)
            c = R.matmul(b, x)
            R.output(c)
        return c
)";

TEST(RunCuda, CudaGraphsAreOnForCudaBuildsUnlessTurnedOff) {
  std::string src = tempPath("chain.py");
  std::ofstream(src) << kStaticChain;
  auto regions = [&](const std::string &flags) {
    std::string exe = tempPath("chain.gexe");
    Result b = graft("build " + flags + " " + src + " -o " + exe);
    EXPECT_EQ(b.code, 0) << b.out;
    Result d = graft("run --dump " + exe);
    return d.out.find("call vm.builtin.cuda_graph.run_or_capture") != std::string::npos;
  };
  EXPECT_TRUE(regions("--target cuda"));
  EXPECT_FALSE(regions("--target cuda --no-cuda-graph"));
  EXPECT_FALSE(regions("--target cuda --config relax.backend.use_cuda_graph=false"));
  EXPECT_FALSE(regions("--target cpu")) << "relax.backend.use_cuda_graph defaults to false";
}

TEST(RunCuda, ProfileListsRegionsOnTheCpuAsEager) {
  std::string src = tempPath("chain.py"), exe = tempPath("chain.gexe");
  std::ofstream(src) << kStaticChain;
  Result b = graft("build " + src + " -o " + exe + " --config relax.backend.use_cuda_graph=true");
  ASSERT_EQ(b.code, 0) << b.out;
  Result r = graft("run " + exe + " --random --repeat 3 --profile");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cuda graph region 0 (main_cuda_graph_capture): eager: 4 eager, 0 captured, "
                       "0 replayed (the device cannot capture graphs)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("host synchronizations per call: 0 in the first call, at most 0 in each "
                       "of the 3 later calls"),
            std::string::npos)
      << r.out;
}

TEST(RunCuda, NoDeviceIsExit2) {
  if (device())
    GTEST_SKIP() << "this machine has a CUDA device";
  Result r = graft("run " + kMlp + " --device cuda --random --dim batch=2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.rfind("graft run: error: no CUDA device: ", 0), 0u) << r.out;
}

TEST(RunCuda, DiffTestDevices) {
  Result bad = graft("difftest --device tpu --count 1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out, "graft difftest: error: unknown device 'tpu' (devices: cuda)\n");
  if (device())
    return;
  Result none = graft("difftest --device cuda --count 1");
  EXPECT_EQ(none.code, 2);
  EXPECT_EQ(none.out.rfind("graft difftest: error: no CUDA device: ", 0), 0u) << none.out;
}

const char *kScatter = R"(from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((4, 3), "float32"), idx: R.Tensor((2, 3), "int64"), upd: R.Tensor((2, 3), "float32")) -> R.Tensor((4, 3), "float32"):
        gv = R.scatter_elements(data, idx, upd, axis=0, reduction="add")
        return gv
)";

/// An out-of-range scatter index fails the run with the CPU kernel's
/// message and exit code. On CUDA the call does not wait for its index
/// check: the error comes from the synchronization that ends the call
/// (docs/cuda.md, "Deferred index checks"), so without the VM call stack
/// of the scatter call.
TEST(RunCuda, BadScatterIndexFailsAsOnTheCpu) {
  GRAFT_REQUIRE_GPU();
  std::string src = tempPath("scatter.py");
  std::ofstream(src) << kScatter;
  TestTensor data(F32, {4, 3}), upd(F32, {2, 3}, {1, 1, 1, 1, 1, 1});
  TestTensor idx = TestTensor::ints(I64, {2, 3}, {0, 1, 2, 3, 9, 0});
  std::string inputs;
  for (auto [name, t] :
       {std::pair<const char *, TestTensor *>{"data", &data}, {"idx", &idx}, {"upd", &upd}}) {
    std::string path = tempPath(std::string(name) + ".npy");
    ASSERT_FALSE(bool(vm::writeNpy(path, *t->dl())));
    inputs += std::string(" --input ") + name + "=" + path;
  }
  const std::string message =
      "graft.scatter_elements: index 9 is out of range for axis 0 of size 4";
  Result cpu = graft("run " + src + inputs);
  EXPECT_EQ(cpu.code, 1);
  EXPECT_NE(cpu.out.find(message), std::string::npos) << cpu.out;
  // No CUDA graph: inside a captured region there is no check at all.
  std::string exe = tempPath("scatter.gexe");
  Result b = graft("build --target cuda --no-cuda-graph " + src + " -o " + exe);
  ASSERT_EQ(b.code, 0) << b.out;
  Result gpu = graft("run " + exe + " --device cuda" + inputs);
  EXPECT_EQ(gpu.code, 1);
  EXPECT_NE(gpu.out.find("graft run: error: " + message + "\n"), std::string::npos) << gpu.out;
}

/// Random programs built for CUDA give the CPU's results (the full run of
/// 500 programs is tools/gpu-check.sh's difftest part).
TEST(RunCuda, GeneratedProgramsMatchTheCpu) {
  GRAFT_REQUIRE_GPU();
  Result r = graft("difftest --device cuda --count 40");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("40 programs on cuda against the CPU: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; 0 disagreements"), std::string::npos) << r.out;
}

/// Runs `example` on `device` with seeded random inputs into `dir`.
Result runExample(const std::string &example, const std::string &device, const std::string &dims,
                  const std::string &dir) {
  std::string src = kSourceDir + "/examples/" + example + ".py";
  std::string exe = dir + ".gexe";
  Result b = graft("build --target " + device + " " + src + " -o " + exe);
  if (b.code)
    return b;
  std::string mk = "mkdir -p " + dir;
  if (std::system(mk.c_str()))
    return {-1, "cannot make " + dir};
  return graft("run " + exe + " --device " + device + " --random --seed 3 " + dims + " --out " +
               dir);
}

TEST(RunCuda, ExamplesMatchTheCpu) {
  GRAFT_REQUIRE_GPU();
  struct Example {
    const char *name, *dims, *output;
    /// Relative bound: the CPU computes layer_norm and softmax in double,
    /// the GPU in float, and transformer_block chains five matmuls.
    float tol;
  };
  for (Example e : {Example{"mlp", "--dim batch=16", "output.npy", 1e-4f},
                    Example{"dynamic_shape", "", "output.npy", 1e-4f},
                    Example{"transformer_block", "--dim seq=32", "output.npy", 1e-3f}}) {
    SCOPED_TRACE(e.name);
    std::string cpuDir = tempPath(std::string(e.name) + "_cpu");
    std::string gpuDir = tempPath(std::string(e.name) + "_cuda");
    Result c = runExample(e.name, "cpu", e.dims, cpuDir);
    ASSERT_EQ(c.code, 0) << c.out;
    Result g = runExample(e.name, "cuda", e.dims, gpuDir);
    ASSERT_EQ(g.code, 0) << g.out;
    auto want = vm::readNpy(cpuDir + "/" + e.output);
    auto got = vm::readNpy(gpuDir + "/" + e.output);
    ASSERT_TRUE(bool(want)) << llvm::toString(want.takeError());
    ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
    ASSERT_EQ(want->shape, got->shape);
    ASSERT_EQ(want->data.size(), got->data.size());
    const float *w = reinterpret_cast<const float *>(want->data.data());
    const float *v = reinterpret_cast<const float *>(got->data.data());
    for (size_t i = 0; i < want->data.size() / 4; ++i)
      EXPECT_NEAR(v[i], w[i], e.tol * std::max(1.0f, std::fabs(w[i]))) << "at " << i;
  }
}

} // namespace
} // namespace graft::cuda::test
