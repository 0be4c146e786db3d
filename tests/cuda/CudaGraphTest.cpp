//===- tests/cuda/CudaGraphTest.cpp - CUDA graphs on the GPU ------------------===//
//
// The rules of vm/CudaGraph.h with real captures: programs are built with
// the graft tool (`build --target cuda`, graphs on unless --no-cuda-graph),
// loaded here and run on CUDA device 0. Between calls the tests write new
// values into the same device buffers, so a replay that did not run, or ran
// the wrong work, gives wrong numbers. Each test skips without a GPU.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"
#include "tests/tools/GraftProcess.h"

#include "vm/CudaGraph.h"
#include "vm/Serialize.h"
#include "vm/VM.h"

#include <cmath>
#include <fstream>
#include <iterator>

namespace graft::cuda::test {
namespace {

using vm::CudaGraphRegionReport;
using vm::Value;

std::string fromEnv(const char *name, const char *dflt) {
  const char *v = std::getenv(name);
  return v ? v : dflt;
}
const std::string kBinary = fromEnv("GRAFT_BINARY", GRAFT_BINARY);

std::string tempPath(const std::string &name) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "graft_" + info->test_suite_name() + "_" + info->name() + "_" +
         name;
}

const char *kHeader = "from tvm.script import ir as I, relax as R, tir as T\n\n";

/// `source` built for CUDA with `flags`, loaded; null after a test failure.
std::shared_ptr<const vm::Executable> buildCuda(const std::string &name, const std::string &source,
                                                const std::string &flags = "") {
  std::string src = tempPath(name + ".py"), exe = tempPath(name + ".gexe");
  std::ofstream(src) << kHeader << source;
  auto r =
      graft::test::runGraft(kBinary, "build --target cuda " + flags + " " + src + " -o " + exe);
  if (r.code != 0) {
    ADD_FAILURE() << "graft build failed: " << r.out;
    return nullptr;
  }
  auto loaded = vm::loadFromFile(exe);
  if (!loaded) {
    ADD_FAILURE() << llvm::toString(loaded.takeError());
    return nullptr;
  }
  return std::shared_ptr<const vm::Executable>(std::move(*loaded));
}

struct CudaVM {
  std::unique_ptr<vm::VirtualMachine> vm;
  std::vector<std::string> infos;

  explicit CudaVM(std::shared_ptr<const vm::Executable> exe) {
    vm::VMOptions o;
    o.devices.push_back(*vm::cudaDevice(0));
    o.infoLog = [this](const std::string &m) { infos.push_back(m); };
    auto made = vm::VirtualMachine::create(std::move(exe), o);
    if (!made)
      ADD_FAILURE() << llvm::toString(made.takeError());
    else
      vm = std::move(*made);
  }
  vm::CUDADevice &device() { return *llvm::cast<vm::CUDADevice>(&vm->allocator(0)->device()); }

  /// A device tensor of `shape` holding `data`.
  Value tensor(llvm::ArrayRef<int64_t> shape, const std::vector<float> &data) {
    auto host = vm::TensorObj::emptyHost(shape, DLDataType{kDLFloat, 32, 1});
    EXPECT_TRUE(bool(host));
    std::memcpy((*host)->bytes(), data.data(), data.size() * 4);
    auto dev = vm::copyTensorsTo(Value::object(*host), vm->allocator(0));
    EXPECT_TRUE(bool(dev));
    return *dev;
  }
  /// A device tensor of `shape` and `dtype`, zero bytes.
  Value zeros(llvm::ArrayRef<int64_t> shape, DLDataType dtype) {
    auto host = vm::TensorObj::emptyHost(shape, dtype);
    EXPECT_TRUE(bool(host));
    std::memset((*host)->bytes(), 0, (*host)->byteSize());
    auto dev = vm::copyTensorsTo(Value::object(*host), vm->allocator(0));
    EXPECT_TRUE(bool(dev));
    return *dev;
  }
  Value boolScalar(bool b) {
    auto host = vm::TensorObj::emptyHost({}, DLDataType{kernels::kGraftDLBool, 8, 1});
    *(*host)->bytes() = char(b);
    return *vm::copyTensorsTo(Value::object(*host), vm->allocator(0));
  }
  /// Writes `data` into `t`'s device buffer in place (same address).
  void overwrite(const Value &t, const std::vector<float> &data) {
    auto *obj = t.as<vm::TensorObj>();
    ASSERT_TRUE(obj);
    ASSERT_EQ(size_t(obj->numElements()), data.size());
    llvm::Error err = device().copy(obj->bytes(), obj->device(), data.data(), DLDevice{kDLCPU, 0},
                                    data.size() * 4);
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  }
  std::vector<float> read(const Value &v) {
    if (llvm::Error err = device().synchronize()) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return {};
    }
    auto host = vm::copyTensorsToHost(v);
    if (!host) {
      ADD_FAILURE() << llvm::toString(host.takeError());
      return {};
    }
    auto *t = host->as<vm::TensorObj>();
    std::vector<float> out(t->numElements());
    std::memcpy(out.data(), t->bytes(), out.size() * 4);
    return out;
  }
  CudaGraphRegionReport region(size_t i = 0) {
    auto r = vm::cudaGraphReport(*vm);
    if (i >= r.size()) {
      ADD_FAILURE() << "no region " << i;
      return {};
    }
    return r[i];
  }
};

std::vector<float> values(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 7 + size_t(seed) * 13) % 17) - 8) * 0.25f;
  return v;
}

/// All parameters are weights (num_input 0), so the kernels on them form
/// one region; the last add writes the returned tensor, outside it.
const char *kChain = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 16), "float32"), w: R.Tensor((16, 16), "float32")) -> R.Tensor((16, 16), "float32"):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            a = R.matmul(x, w)
            b = R.add(a, w)
            c = R.nn.softmax(b, axis=-1)
            d = R.multiply(c, x)
            e = R.add(d, x)
            R.output(e)
        return e
)";

TEST(CudaGraph, ReplayGivesTheEagerResultsOverManyCalls) {
  GRAFT_REQUIRE_GPU();
  auto graphExe = buildCuda("graph", kChain);
  auto eagerExe = buildCuda("eager", kChain, "--no-cuda-graph");
  ASSERT_TRUE(graphExe && eagerExe);
  ASSERT_GE(graphExe->findFunction("main_cuda_graph_capture"), 0) << "no region was made";
  ASSERT_LT(eagerExe->findFunction("main_cuda_graph_capture"), 0) << "--no-cuda-graph";
  CudaVM graph(graphExe), eager(eagerExe);
  ASSERT_TRUE(graph.vm && eager.vm);
  Value gx = graph.tensor({16, 16}, values(256, 0)), gw = graph.tensor({16, 16}, values(256, 1));
  Value ex = eager.tensor({16, 16}, values(256, 0)), ew = eager.tensor({16, 16}, values(256, 1));
  constexpr int kCalls = 40;
  for (int i = 0; i < kCalls; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    std::vector<float> xs = values(256, i + 2), ws = values(256, 3 * i + 5);
    graph.overwrite(gx, xs);
    graph.overwrite(gw, ws);
    eager.overwrite(ex, xs);
    eager.overwrite(ew, ws);
    auto got = graph.vm->invoke("main", {gx, gw});
    auto want = eager.vm->invoke("main", {ex, ew});
    ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
    ASSERT_TRUE(bool(want)) << llvm::toString(want.takeError());
    ASSERT_EQ(graph.read(*got), eager.read(*want));
    if (i == 0) {
      // The miss ran eagerly and captured; the graph has not launched yet.
      CudaGraphRegionReport first = graph.region();
      EXPECT_EQ(first.captures, 1u);
      EXPECT_EQ(first.replays, 0u);
      EXPECT_EQ(first.ownedBytes, 0u);
    }
  }
  CudaGraphRegionReport r = graph.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::Captured) << r.reason;
  EXPECT_EQ(r.eagerRuns, 1u);
  EXPECT_EQ(r.captures, 1u);
  EXPECT_EQ(r.replays, uint64_t(kCalls - 1));
  EXPECT_TRUE(graph.infos.empty());
}

/// `region` squares x into `out` and reads `flag` on the host in between.
const char *kHostRead = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32"), flag: R.Tensor((), "bool")) -> R.Tuple(R.Tensor((2, "n"), "float32")):
        _ = R.call_packed("graft.multiply", x, x, out, sinfo_args=R.Object)
        c = R.call_packed("vm.builtin.read_if_cond", flag, sinfo_args=R.Prim("bool"))
        return (out,)

    @R.function(pure=False)
    def main(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32"), flag: R.Tensor((), "bool")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, out, flag), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, n), "float32")),))
        y = gv[0]
        return y
)";

/// The same region without the host read.
const char *kSquare = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")) -> R.Tuple(R.Tensor((2, "n"), "float32")):
        _ = R.call_packed("graft.multiply", x, x, out, sinfo_args=R.Object)
        return (out,)

    @R.function(pure=False)
    def main(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, out), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, n), "float32")),))
        y = gv[0]
        return y
)";

std::vector<float> squares(std::vector<float> v) {
  for (float &e : v)
    e *= e;
  return v;
}

TEST(CudaGraph, HostReadInARegionFallsBackToEagerAndStaysThere) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("hostread", kHostRead, "--no-cuda-graph");
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({2, 3}, values(6, 0)), out = g.tensor({2, 3}, std::vector<float>(6, 0));
  Value flag = g.boolScalar(true);
  for (int i = 0; i < 5; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    std::vector<float> xs = values(6, i + 1);
    g.overwrite(x, xs);
    auto y = g.vm->invoke("main", {x, out, flag});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    EXPECT_EQ(g.read(*y), squares(xs));
  }
  CudaGraphRegionReport r = g.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_NE(r.reason.find("host read refused while a CUDA-graph capture is open"),
            std::string::npos)
      << r.reason;
  EXPECT_EQ(r.eagerRuns, 5u);
  EXPECT_EQ(r.captures, 0u);
  EXPECT_EQ(r.graphs, 0u);
  EXPECT_EQ(g.infos.size(), 1u) << "logged once";
  EXPECT_FALSE(g.vm->captureOpen());
}

TEST(CudaGraph, AChangedShapeOrAddressIsRefused) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("square", kSquare, "--no-cuda-graph");
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({2, 3}, values(6, 0)), out = g.tensor({2, 3}, std::vector<float>(6, 0));
  for (int i = 0; i < 3; ++i) {
    std::vector<float> xs = values(6, i + 4);
    g.overwrite(x, xs);
    auto y = g.vm->invoke("main", {x, out});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    EXPECT_EQ(g.read(*y), squares(xs)) << "call " << i;
  }
  EXPECT_EQ(g.region().replays, 2u);
  Value x4 = g.tensor({2, 4}, values(8, 0)), out4 = g.tensor({2, 4}, std::vector<float>(8, 0));
  auto shape = g.vm->invoke("main", {x4, out4});
  ASSERT_FALSE(bool(shape));
  std::string msg = llvm::toString(shape.takeError());
  EXPECT_NE(
      msg.find("vm.builtin.cuda_graph.run_or_capture: region 0 (region): input 0 (x) has size 4 "
               "in dim 1, captured with 3"),
      std::string::npos)
      << msg;
  Value other = g.tensor({2, 3}, std::vector<float>(6, 0));
  auto moved = g.vm->invoke("main", {x, other});
  ASSERT_FALSE(bool(moved));
  msg = llvm::toString(moved.takeError());
  EXPECT_NE(msg.find("input 1 (out) is at address"), std::string::npos) << msg;
  EXPECT_EQ(g.region().replays, 2u);
}

/// A sort: its kernel takes a workspace, which the graph gets a block for
/// (a row longer than one block sorts in shared memory: cub's radix sort).
const char *kSort = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8192,), "float32"), w: R.Tensor((8192,), "float32")) -> R.Tensor((8192,), "float32"):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            s = R.sort(x)
            y = R.add(s, w)
            R.output(y)
        return y
)";

TEST(CudaGraph, AFailedFirstLaunchLeavesNoRecordedAllocation) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("sort", kSort);
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({8192}, values(8192, 0)), w = g.tensor({8192}, values(8192, 1));
  auto expect = [&](const Value &y, const std::vector<float> &xs, const std::vector<float> &ws) {
    std::vector<float> s = xs;
    std::sort(s.begin(), s.end());
    for (size_t i = 0; i < s.size(); ++i)
      s[i] += ws[i];
    EXPECT_EQ(g.read(y), s);
  };
  auto first = g.vm->invoke("main", {x, w});
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  expect(*first, values(8192, 0), values(8192, 1));
  CudaGraphRegionReport r = g.region();
  ASSERT_EQ(r.state, CudaGraphRegionReport::State::Captured) << r.reason;
  EXPECT_EQ(r.ownedBytes, 0u) << "recorded before its first launch";

  g.device().failNextGraphLaunch();
  auto failed = g.vm->invoke("main", {x, w});
  ASSERT_FALSE(bool(failed));
  std::string msg = llvm::toString(failed.takeError());
  EXPECT_NE(msg.find("launch failed"), std::string::npos) << msg;
  r = g.region();
  EXPECT_EQ(r.ownedBytes, 0u);
  EXPECT_EQ(r.graphs, 0u);

  // The next call captures again; the launch after it records the block.
  for (int i = 0; i < 3; ++i) {
    std::vector<float> xs = values(8192, i + 7);
    g.overwrite(x, xs);
    auto y = g.vm->invoke("main", {x, w});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    expect(*y, xs, values(8192, 1));
  }
  r = g.region();
  EXPECT_EQ(r.captures, 2u);
  EXPECT_EQ(r.replays, 2u);
  EXPECT_GT(r.ownedBytes, 0u);
}

/// TVM #20485's shape: a static reshape lifted into the region, then a
/// match_cast to a new symbolic shape that a kernel outside it reads.
const char *kReshapeMatchCast = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 576, 64), "float32"), w: R.Tensor((64, 64), "float32")) -> R.Tensor(ndim=3, dtype="float32"):
        R.func_attr({"num_input": 0})
        h = T.int64()
        v = T.int64()
        with R.dataflow():
            a0 = R.matmul(x, w)
            a1 = R.multiply(a0, R.const(0.5, "float32"))
            lv383 = R.reshape(a1, R.shape([24, 24, 64]))
            lv384 = R.match_cast(lv383, R.Tensor((h, v, 64), "float32"))
            crop = R.add(lv384, lv384)
            R.output(crop)
        return crop
)";

TEST(CudaGraph, ReshapeThenMatchCastInARegionRunsCorrectly) {
  GRAFT_REQUIRE_GPU();
  auto graphExe = buildCuda("graph", kReshapeMatchCast);
  auto eagerExe = buildCuda("eager", kReshapeMatchCast, "--no-cuda-graph");
  ASSERT_TRUE(graphExe && eagerExe);
  ASSERT_GE(graphExe->findFunction("main_cuda_graph_capture"), 0);
  CudaVM graph(graphExe), eager(eagerExe);
  ASSERT_TRUE(graph.vm && eager.vm);
  Value gx = graph.tensor({1, 576, 64}, values(576 * 64, 0));
  Value gw = graph.tensor({64, 64}, values(64 * 64, 1));
  Value ex = eager.tensor({1, 576, 64}, values(576 * 64, 0));
  Value ew = eager.tensor({64, 64}, values(64 * 64, 1));
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    std::vector<float> xs = values(576 * 64, i + 3);
    graph.overwrite(gx, xs);
    eager.overwrite(ex, xs);
    auto got = graph.vm->invoke("main", {gx, gw});
    auto want = eager.vm->invoke("main", {ex, ew});
    ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
    ASSERT_TRUE(bool(want)) << llvm::toString(want.takeError());
    auto *t = got->as<vm::TensorObj>();
    ASSERT_TRUE(t);
    EXPECT_EQ(std::vector<int64_t>(t->shape().begin(), t->shape().end()),
              (std::vector<int64_t>{24, 24, 64}));
    ASSERT_EQ(graph.read(*got), eager.read(*want));
  }
  EXPECT_EQ(graph.region().replays, 3u);
}

/// A chain of `n` kernels on weights only: permute_dims and add alternate,
/// written as kernel calls so that fuse-elementwise leaves them `n`
/// kernels; all but the last form one region.
std::string chainProgram(int n) {
  const std::string t = R"(R.Tensor((16, 16), "float32"))";
  std::string text = "@I.ir_module\nclass Module:\n    @R.function\n    def main(x: " + t +
                     ", w: " + t + ") -> " + t +
                     ":\n        R.func_attr({\"num_input\": 0})\n        with R.dataflow():\n";
  std::string prev = "x";
  for (int i = 1; i <= n; ++i) {
    std::string y = "y" + std::to_string(i);
    std::string call =
        i % 2 ? R"(R.call_dps_packed("graft.permute_dims", ()" + prev + ", R.shape([1, 0]))"
              : R"(R.call_dps_packed("graft.add", ()" + prev + ", w)";
    text += "            " + y + " = " + call + ", out_sinfo=" + t + ")\n";
    prev = y;
  }
  return text + "            R.output(" + prev + ")\n        return " + prev + "\n";
}

/// (x^T + w)^T + w ... on the host, as the chain computes it.
std::vector<float> chainOnHost(std::vector<float> x, const std::vector<float> &w, int n) {
  for (int i = 1; i <= n; ++i) {
    std::vector<float> y(256);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c)
        y[r * 16 + c] = i % 2 ? x[c * 16 + r] : x[r * 16 + c] + w[r * 16 + c];
    x = std::move(y);
  }
  return x;
}

// Replay cost: each kernel call of the region is one kernel node and the
// graph holds nothing else (no copies, memsets or event nodes).
TEST(CudaGraph, AChainIsOneKernelNodePerKernelCall) {
  GRAFT_REQUIRE_GPU();
  constexpr int kKernels = 20;
  auto exe = buildCuda("chain", chainProgram(kKernels));
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({16, 16}, values(256, 0)), w = g.tensor({16, 16}, values(256, 1));
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    std::vector<float> xs = values(256, i + 3);
    g.overwrite(x, xs);
    auto y = g.vm->invoke("main", {x, w});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    EXPECT_EQ(g.read(*y), chainOnHost(xs, values(256, 1), kKernels));
  }
  CudaGraphRegionReport r = g.region();
  EXPECT_EQ(r.replays, 3u);
  EXPECT_EQ(r.nodes.kernels, unsigned(kKernels - 1)) << "the last add writes the result outside";
  EXPECT_EQ(r.nodes.copies, 0u);
  EXPECT_EQ(r.nodes.sets, 0u);
  EXPECT_EQ(r.nodes.other, 0u);
}

/// `region` adds x into `acc` in place, then reads `flag` on the host.
const char *kAccumulateHostRead = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor((2, "n"), "float32"), acc: R.Tensor((2, "n"), "float32"), flag: R.Tensor((), "bool")) -> R.Tuple(R.Tensor((2, "n"), "float32")):
        _ = R.call_packed("graft.add", acc, x, acc, sinfo_args=R.Object)
        c = R.call_packed("vm.builtin.read_if_cond", flag, sinfo_args=R.Prim("bool"))
        return (acc,)

    @R.function(pure=False)
    def main(x: R.Tensor((2, "n"), "float32"), acc: R.Tensor((2, "n"), "float32"), flag: R.Tensor((), "bool")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, acc, flag), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, n), "float32")),))
        y = gv[0]
        return y
)";

// A failed capture keeps the eager results and does not run the region a
// second time in that call: the in-place sum grows by x once per call.
TEST(CudaGraph, AFailedCaptureDoesNotRunTheRegionAgainInThatCall) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("accumulate", kAccumulateHostRead, "--no-cuda-graph");
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  std::vector<float> xs = values(6, 2), sum(6, 0);
  Value x = g.tensor({2, 3}, xs), acc = g.tensor({2, 3}, sum), flag = g.boolScalar(true);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    auto y = g.vm->invoke("main", {x, acc, flag});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    for (size_t k = 0; k < sum.size(); ++k)
      sum[k] += xs[k];
    EXPECT_EQ(g.read(*y), sum);
  }
  CudaGraphRegionReport r = g.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_EQ(r.eagerRuns, 3u);
  EXPECT_EQ(r.captures, 0u);
  ASSERT_EQ(g.infos.size(), 1u) << "logged once";
  EXPECT_NE(g.infos[0].find("CUDA-graph region 0 (region) runs without a graph in this VM: the "
                            "capture failed: "),
            std::string::npos)
      << g.infos[0];
}

/// `region` allocates its result: refused while the capture is open.
const char *kAllocating = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")) -> R.Tuple(R.Tensor((2, "n"), "float32")):
        y = R.multiply(x, x)
        return (y,)

    @R.function(pure=False)
    def main(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, out), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, n), "float32")),))
        y = gv[0]
        return y
)";

// The caching allocator serves nothing while a capture is open: a region
// that allocates falls back to eager with correct results.
TEST(CudaGraph, AnAllocationInsideACaptureIsRefusedAndFallsBack) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("allocating", kAllocating, "--no-cuda-graph");
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({2, 3}, values(6, 0)), out = g.tensor({2, 3}, std::vector<float>(6, 0));
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    std::vector<float> xs = values(6, i + 1);
    g.overwrite(x, xs);
    auto y = g.vm->invoke("main", {x, out});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    EXPECT_EQ(g.read(*y), squares(xs));
  }
  CudaGraphRegionReport r = g.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_NE(r.reason.find("refused: a CUDA-graph capture is open"), std::string::npos) << r.reason;
  EXPECT_EQ(r.graphs, 0u);
  EXPECT_EQ(g.infos.size(), 1u);
  EXPECT_FALSE(g.vm->captureOpen());
  EXPECT_FALSE(g.vm->allocator(0)->captureOpen());
}

/// kSquare with tensors of any dtype at the top, so only the hit check
/// sees a changed dtype.
const char *kSquareAnyDType = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor(ndim=2), out: R.Tensor(ndim=2)) -> R.Tuple(R.Tensor(ndim=2)):
        _ = R.call_packed("graft.multiply", x, x, out, sinfo_args=R.Object)
        return (out,)

    @R.function(pure=False)
    def main(x: R.Tensor(ndim=2), out: R.Tensor(ndim=2)) -> R.Tensor(ndim=2):
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, out), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor(ndim=2)),))
        y = gv[0]
        return y
)";

TEST(CudaGraph, AChangedDTypeIsRefused) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("anydtype", kSquareAnyDType, "--no-cuda-graph");
  ASSERT_TRUE(exe);
  CudaVM g(exe);
  ASSERT_TRUE(g.vm);
  Value x = g.tensor({2, 3}, values(6, 0)), out = g.tensor({2, 3}, std::vector<float>(6, 0));
  for (int i = 0; i < 2; ++i) {
    auto y = g.vm->invoke("main", {x, out});
    ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
    EXPECT_EQ(g.read(*y), squares(values(6, 0)));
  }
  DLDataType f16{kDLFloat, 16, 1};
  auto bad = g.vm->invoke("main", {g.zeros({2, 3}, f16), g.zeros({2, 3}, f16)});
  ASSERT_FALSE(bool(bad));
  std::string msg = llvm::toString(bad.takeError());
  EXPECT_NE(
      msg.find("vm.builtin.cuda_graph.run_or_capture: region 0 (region): input 0 (x) has dtype "
               "float16, captured with float32"),
      std::string::npos)
      << msg;
  EXPECT_EQ(g.region().replays, 1u);
}

TEST(CudaGraph, StaticAllocationsAreMadeOncePerVM) {
  GRAFT_REQUIRE_GPU();
  auto exe = buildCuda("chain", chainProgram(6));
  ASSERT_TRUE(exe);
  for (int vmCount = 0; vmCount < 2; ++vmCount) {
    SCOPED_TRACE("VM " + std::to_string(vmCount));
    CudaVM g(exe);
    ASSERT_TRUE(g.vm);
    Value x = g.tensor({16, 16}, values(256, 0)), w = g.tensor({16, 16}, values(256, 1));
    for (int i = 0; i < 5; ++i) {
      auto y = g.vm->invoke("main", {x, w});
      ASSERT_TRUE(bool(y)) << llvm::toString(y.takeError());
      EXPECT_EQ(g.read(*y), chainOnHost(values(256, 0), values(256, 1), 6));
    }
    EXPECT_EQ(vm::cudaGraphAllocCalls(*g.vm), 1u);
    EXPECT_EQ(g.region().captures, 1u);
    EXPECT_EQ(g.region().replays, 4u);
  }
}

// graft run --profile on the GPU: each region's state, the graph's nodes
// and the host waits per call.
TEST(CudaGraph, ProfileListsTheRegionItsNodesAndNoHostWait) {
  GRAFT_REQUIRE_GPU();
  std::string src = tempPath("chain.py"), exe = tempPath("chain.gexe");
  std::ofstream(src) << kHeader << chainProgram(8);
  auto b = graft::test::runGraft(kBinary, "build --target cuda " + src + " -o " + exe);
  ASSERT_EQ(b.code, 0) << b.out;
  auto r = graft::test::runGraft(kBinary, "run " + exe +
                                              " --device cuda --random --seed 1 --repeat 5 "
                                              "--profile");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cuda graph region 0 (main_cuda_graph_capture): captured: 1 eager, 1 "
                       "captured, 5 replayed; 7 graph nodes: 7 kernels, 0 copies, 0 sets, 0 other"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("host synchronizations per call: 0 in the first call, at most 0 in each of "
                       "the 5 later calls"),
            std::string::npos)
      << r.out;
}

const std::string kSourceDir = fromEnv("GRAFT_SOURCE_DIR", GRAFT_SOURCE_DIR);

// fuse-masked-copy and remove-device-asserts (build-cuda) leave the
// transformer block without host reads, and stage-cuda-graph-inputs lets
// its one region take in every kernel but the result's: no call waits for
// the device, and later calls replay.
TEST(CudaGraph, TheTransformerBlockIsCapturedAndNeverWaits) {
  GRAFT_REQUIRE_GPU();
  std::string exe = tempPath("block.gexe");
  auto b = graft::test::runGraft(kBinary, "build --target cuda " + kSourceDir +
                                              "/examples/transformer_block.py -o " + exe);
  ASSERT_EQ(b.code, 0) << b.out;
  auto r = graft::test::runGraft(kBinary, "run " + exe +
                                              " --device cuda --random --seed 1 --dim seq=32 "
                                              "--repeat 5 --profile");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cuda graph region 0 (main_cuda_graph_capture): captured: 1 eager, 1 "
                       "captured, 5 replayed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("cuda graph region 1"), std::string::npos) << "one region: " << r.out;
  EXPECT_NE(r.out.find("host synchronizations per call: 0 in the first call, at most 0 in each of "
                       "the 5 later calls"),
            std::string::npos)
      << r.out;
}

/// The transformer block's weights (gamma, beta, wq, wk, wv, wo): made once
/// per VM and passed on every call, as weights are (parameters from
/// num_input on are static: a graph reads them at their capture's addresses).
std::vector<Value> blockWeights(CudaVM &g) {
  std::vector<Value> w;
  w.push_back(g.tensor({64}, values(64, 101)));
  w.push_back(g.tensor({64}, values(64, 102)));
  for (int i = 0; i < 4; ++i) {
    std::vector<float> ws = values(64 * 64, 103 + i);
    for (float &v : ws)
      v *= 0.05f;
    w.push_back(g.tensor({64, 64}, ws));
  }
  return w;
}

/// The transformer block's arguments for `seq` rows: fresh activations (x
/// and keep, at new addresses) on every call, values from `seed`, then the
/// VM's `weights`.
std::vector<Value> blockInputs(CudaVM &g, int64_t seq, int seed,
                               const std::vector<Value> &weights) {
  std::vector<Value> in;
  in.push_back(g.tensor({seq, 64}, values(size_t(seq) * 64, seed)));
  std::vector<uint8_t> keep(size_t(seq) * 64);
  for (size_t i = 0; i < keep.size(); ++i)
    keep[i] = (i * 5 + size_t(seed)) % 3 == 0;
  Value mask = g.zeros({seq, 64}, DLDataType{kernels::kGraftDLBool, 8, 1});
  auto *t = mask.as<vm::TensorObj>();
  llvm::Error err =
      g.device().copy(t->bytes(), t->device(), keep.data(), DLDevice{kDLCPU, 0}, keep.size());
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  in.push_back(mask);
  in.insert(in.end(), weights.begin(), weights.end());
  return in;
}

// Replays of the captured block give the results of a build without graphs,
// call after call with new input tensors; another seq is captured anew.
TEST(CudaGraph, TheTransformerBlockReplaysTheEagerResults) {
  GRAFT_REQUIRE_GPU();
  std::string src = kSourceDir + "/examples/transformer_block.py";
  std::ifstream in(src);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty()) << src;
  // buildCuda prepends the import line the example already has.
  text = text.substr(text.find("@I.ir_module"));
  auto graphExe = buildCuda("block", text);
  auto eagerExe = buildCuda("block_eager", text, "--no-cuda-graph");
  ASSERT_TRUE(graphExe && eagerExe);
  CudaVM graph(graphExe), eager(eagerExe);
  ASSERT_TRUE(graph.vm && eager.vm);
  std::vector<Value> graphWeights = blockWeights(graph), eagerWeights = blockWeights(eager);
  int calls = 0;
  for (int64_t seq : {32, 32, 32, 32, 16, 16, 32}) {
    SCOPED_TRACE("call " + std::to_string(calls) + ", seq " + std::to_string(seq));
    auto got = graph.vm->invoke("main", blockInputs(graph, seq, calls, graphWeights));
    auto want = eager.vm->invoke("main", blockInputs(eager, seq, calls, eagerWeights));
    ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
    ASSERT_TRUE(bool(want)) << llvm::toString(want.takeError());
    std::vector<float> a = graph.read(*got), e = eager.read(*want);
    ASSERT_EQ(a.size(), size_t(seq) * 64);
    ASSERT_EQ(a.size(), e.size());
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_NEAR(a[i], e[i], 1e-5f + 1e-5f * std::fabs(e[i])) << "element " << i;
    ++calls;
  }
  CudaGraphRegionReport r = graph.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::Captured) << r.reason;
  EXPECT_EQ(r.captures, 2u) << "one graph per seq";
  EXPECT_EQ(r.eagerRuns, 2u);
  EXPECT_EQ(r.replays, 5u);
  EXPECT_EQ(r.graphs, 2u);
  EXPECT_EQ(vm::cudaGraphAllocCalls(*graph.vm), 1u);
  EXPECT_TRUE(graph.infos.empty());
  // A weight passed as another tensor is refused, naming it: weights are
  // not staged (docs/cuda-graphs.md).
  std::vector<Value> moved = blockWeights(graph);
  auto refused = graph.vm->invoke("main", blockInputs(graph, 32, 0, moved));
  ASSERT_FALSE(bool(refused));
  std::string msg = llvm::toString(refused.takeError());
  EXPECT_NE(msg.find("region 0 (main_cuda_graph_capture): input 1 (gamma) is at address"),
            std::string::npos)
      << msg;
}

} // namespace
} // namespace graft::cuda::test
