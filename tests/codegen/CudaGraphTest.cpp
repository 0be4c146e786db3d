//===- tests/codegen/CudaGraphTest.cpp - The CUDA-graph builtins on the CPU ===//
//
// The bookkeeping of vm.builtin.cuda_graph.* (vm/CudaGraph.h) against a fake
// device that "captures": it runs the CPU kernels as they come (it cannot
// defer them) and counts captures, graphs, launches and live blocks, and can
// be told to fail an instantiation or a launch. The real graphs are tested
// on the GPU (tests/cuda/CudaGraphTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "CodeGenTestUtil.h"

#include "vm/CudaGraph.h"

#include <cstdlib>

using namespace graft;
using namespace graft::codegen::test;
using vm::CudaGraphRegionReport;

namespace {

class FakeGraphDevice final : public vm::Device {
public:
  FakeGraphDevice() : Device(Kind::CPU, DLDevice{kDLCPU, 0}) {}

  llvm::Expected<void *> allocate(size_t bytes, size_t alignment) override {
    ++liveBlocks;
    return std::aligned_alloc(alignment, llvm::alignTo(bytes ? bytes : 1, alignment));
  }
  void free(void *ptr, size_t) override {
    --liveBlocks;
    std::free(ptr);
  }
  llvm::Error copy(void *dst, DLDevice, const void *src, DLDevice, size_t bytes) override {
    std::memmove(dst, src, bytes);
    return llvm::Error::success();
  }
  llvm::Error synchronize() override {
    ++syncs;
    return llvm::Error::success();
  }
  bool canCaptureGraphs() const override { return true; }
  llvm::Error beginCapture() override {
    ++captures;
    return llvm::Error::success();
  }
  llvm::Expected<void *> endCapture() override {
    if (failInstantiate)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cudaGraphInstantiate: fake failure");
    ++liveGraphs;
    return static_cast<void *>(new int(0));
  }
  llvm::Error launchGraph(void *) override {
    if (failLaunch) {
      failLaunch = false;
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cudaGraphLaunch: fake failure");
    }
    ++launches;
    return llvm::Error::success();
  }
  void destroyGraph(void *graph) override {
    --liveGraphs;
    delete static_cast<int *>(graph);
  }
  uint64_t hostSyncs() const override { return syncs; }

  int liveBlocks = 0, liveGraphs = 0, captures = 0, launches = 0;
  uint64_t syncs = 0;
  bool failInstantiate = false, failLaunch = false;
};

/// `region(x, out, ...)` with `regionBody`, called from `main(x, out, ...)`
/// through run_or_capture (entry 0, no symbolic key); `extraParam` and
/// `extraArg` add a parameter to both and its argument to the capture.
std::string regionModule(const std::string &regionBody, const std::string &extraParam = "",
                         const std::string &extraArg = "") {
  std::string text = R"PY(@I.ir_module
class Module:
    @R.function(pure=False)
    def region(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")@P) -> R.Tuple(R.Tensor((2, "n"), "float32")):
@BODY
    @R.function(pure=False)
    def main(x: R.Tensor((2, "n"), "float32"), out: R.Tensor((2, "n"), "float32")@P) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        cls = Module
        gv = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.region, (x, out@A), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, n), "float32")),))
        y = gv[0]
        return y
)PY";
  auto replace = [&](llvm::StringRef key, const std::string &with) {
    for (size_t at; (at = text.find(key.str())) != std::string::npos;)
      text.replace(at, key.size(), with);
  };
  replace("@BODY", regionBody);
  replace("@P", extraParam);
  replace("@A", extraArg);
  return text;
}

const char *kSquareBody =
    R"(        _ = R.call_packed("graft.multiply", x, x, out, sinfo_args=R.Object)
        return (out,)
)";
const char *kHostReadBody =
    R"(        _ = R.call_packed("graft.multiply", x, x, out, sinfo_args=R.Object)
        c = R.call_packed("vm.builtin.read_if_cond", flag, sinfo_args=R.Prim("bool"))
        return (out,)
)";
const char *kAllocBody = R"(        y = R.multiply(x, x)
        return (y,)
)";

struct Harness {
  std::shared_ptr<FakeGraphDevice> dev = std::make_shared<FakeGraphDevice>();
  std::unique_ptr<vm::VirtualMachine> vm;
  std::vector<std::string> infos;

  explicit Harness(std::shared_ptr<const vm::Executable> exe, bool profile = false) {
    vm::VMOptions o;
    o.devices.push_back(dev);
    o.profile = profile;
    o.infoLog = [this](const std::string &m) { infos.push_back(m); };
    vm = take(vm::VirtualMachine::create(std::move(exe), o));
  }
  llvm::Expected<Value> call(llvm::ArrayRef<Value> args) { return vm->invoke("main", args); }
  CudaGraphRegionReport region(size_t i = 0) {
    auto r = vm::cudaGraphReport(*vm);
    if (i >= r.size()) {
      ADD_FAILURE() << "no region " << i;
      return {};
    }
    return r[i];
  }
};

Value xTensor(int64_t n, float base) {
  std::vector<float> v(2 * n);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = base + float(i);
  return f32Tensor({2, n}, v);
}

std::vector<float> squares(const Value &x) {
  std::vector<float> v = tensorData<float>(x);
  for (float &e : v)
    e *= e;
  return v;
}

Value flagTensor(bool b) { return hostTensor<uint8_t>({}, kBool, {uint8_t(b)}); }

} // namespace

TEST(CudaGraphBookkeeping, MissRunsEagerlyCapturesThenReplaysOnTheNextHit) {
  Harness h(build(regionModule(kSquareBody)));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  Value first = take(h.call({x, out}));
  EXPECT_EQ(tensorData<float>(first), squares(x));
  CudaGraphRegionReport r = h.region();
  EXPECT_EQ(r.function, "region");
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::Captured);
  EXPECT_EQ(r.eagerRuns, 1u);
  EXPECT_EQ(r.captures, 1u);
  EXPECT_EQ(h.dev->launches, 0) << "the graph first launches on the next hit";
  for (int i = 0; i < 3; ++i) {
    Value again = take(h.call({x, out}));
    EXPECT_EQ(tensorData<float>(again), squares(x));
  }
  r = h.region();
  EXPECT_EQ(r.replays, 3u);
  EXPECT_EQ(r.eagerRuns, 1u);
  EXPECT_EQ(h.dev->launches, 3);
  EXPECT_EQ(h.dev->captures, 1);
  EXPECT_TRUE(h.infos.empty());
  h.vm.reset();
  EXPECT_EQ(h.dev->liveGraphs, 0) << "graphs die with the VM";
}

TEST(CudaGraphBookkeeping, HitRefusesAChangedShapeNamingInputDimAndSizes) {
  Harness h(build(regionModule(kSquareBody)));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  take(h.call({x, out}));
  Value x4 = xTensor(4, 1), out4 = f32Tensor({2, 4}, std::vector<float>(8, 0));
  std::string err = errorOf(h.call({x4, out4}));
  EXPECT_NE(
      err.find("vm.builtin.cuda_graph.run_or_capture: region 0 (region): input 0 (x) has size "
               "4 in dim 1, captured with 3"),
      std::string::npos)
      << err;
  EXPECT_EQ(h.dev->launches, 0);
}

TEST(CudaGraphBookkeeping, HitRefusesAChangedAddress) {
  Harness h(build(regionModule(kSquareBody)));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  take(h.call({x, out}));
  Value other = f32Tensor({2, 3}, std::vector<float>(6, 0));
  std::string err = errorOf(h.call({x, other}));
  EXPECT_NE(err.find("input 1 (out) is at address"), std::string::npos) << err;
  EXPECT_NE(err.find("(a graph replays the addresses of its capture)"), std::string::npos) << err;
  EXPECT_EQ(h.dev->launches, 0);
}

TEST(CudaGraphBookkeeping, HostReadInsideTheCaptureFallsBackOnceAndForGood) {
  Harness h(build(regionModule(kHostReadBody, R"(, flag: R.Tensor((), "bool"))", ", flag")),
            /*profile=*/true);
  Value x = xTensor(3, 2), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  Value first = take(h.call({x, out, flagTensor(true)}));
  EXPECT_EQ(tensorData<float>(first), squares(x));
  CudaGraphRegionReport r = h.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_NE(r.reason.find("vm.builtin.read_if_cond: host read refused while a CUDA-graph capture "
                          "is open"),
            std::string::npos)
      << r.reason;
  EXPECT_EQ(h.dev->liveGraphs, 0);
  // Eager run plus the refused capture; the region does not run a third time.
  for (const vm::ProfileEntry &e : h.vm->profile()) {
    if (e.name == "graft.multiply") {
      EXPECT_EQ(e.calls, 2u);
    }
  }
  for (int i = 0; i < 3; ++i) {
    Value x2 = xTensor(3, float(i));
    Value again = take(h.call({x2, out, flagTensor(false)}));
    EXPECT_EQ(tensorData<float>(again), squares(x2));
  }
  r = h.region();
  EXPECT_EQ(r.eagerRuns, 4u);
  EXPECT_EQ(r.replays, 0u);
  EXPECT_EQ(h.dev->captures, 1) << "eager-only: no second capture";
  ASSERT_EQ(h.infos.size(), 1u) << "logged once";
  EXPECT_NE(h.infos[0].find("CUDA-graph region 0 (region) runs without a graph in this VM"),
            std::string::npos)
      << h.infos[0];
}

TEST(CudaGraphBookkeeping, AllocationInsideTheCaptureIsRefusedAndFallsBack) {
  Harness h(build(regionModule(kAllocBody)));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  Value first = take(h.call({x, out}));
  EXPECT_EQ(tensorData<float>(first), squares(x));
  CudaGraphRegionReport r = h.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_NE(r.reason.find("refused: a CUDA-graph capture is open"), std::string::npos) << r.reason;
  Value again = take(h.call({x, out}));
  EXPECT_EQ(tensorData<float>(again), squares(x));
  EXPECT_FALSE(h.vm->captureOpen());
}

TEST(CudaGraphBookkeeping, FailedInstantiationKeepsTheEagerResults) {
  Harness h(build(regionModule(kSquareBody)));
  h.dev->failInstantiate = true;
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  Value first = take(h.call({x, out}));
  EXPECT_EQ(tensorData<float>(first), squares(x));
  CudaGraphRegionReport r = h.region();
  EXPECT_EQ(r.state, CudaGraphRegionReport::State::EagerOnly);
  EXPECT_NE(r.reason.find("cudaGraphInstantiate: fake failure"), std::string::npos) << r.reason;
  EXPECT_EQ(h.infos.size(), 1u);
}

TEST(CudaGraphBookkeeping, FailedLaunchIsAnErrorAndLeavesNoAllocationBehind) {
  // A kernel with a workspace gives the graph a block of its own.
  static auto workspaceKernel = [](vm::VirtualMachine &vm, const void *,
                                   llvm::ArrayRef<Value>) -> llvm::Expected<Value> {
    auto ws = vm::acquireKernelWorkspace(vm, 0, 1000);
    if (!ws)
      return ws.takeError();
    vm::releaseKernelWorkspace(vm, 0, *ws);
    return Value();
  };
  vm::PackedRegistry::global().add("test.workspace_kernel", +workspaceKernel);
  std::string body = R"(        _ = R.call_packed("test.workspace_kernel", sinfo_args=R.Object)
)" + std::string(kSquareBody);
  Harness h(build(regionModule(body)));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  take(h.call({x, out}));
  // The eager run's workspace stays in the allocator's cache; the graph has
  // a block of its own, made before the capture.
  int cached = int(h.vm->allocator(0)->stats().deviceAllocs);
  EXPECT_EQ(h.dev->liveBlocks, cached + 1);
  EXPECT_EQ(h.region().ownedBytes, 0u) << "not the graph's own before its first launch";
  h.dev->failLaunch = true;
  std::string err = errorOf(h.call({x, out}));
  EXPECT_NE(err.find("region 0 (region): launch failed: cudaGraphLaunch: fake failure"),
            std::string::npos)
      << err;
  CudaGraphRegionReport r = h.region();
  EXPECT_EQ(r.ownedBytes, 0u);
  EXPECT_EQ(r.graphs, 0u);
  EXPECT_EQ(h.dev->liveBlocks, cached) << "the failed graph's block is freed";
  EXPECT_EQ(h.dev->liveGraphs, 0);
  // The next call captures again; its first launch records the block.
  take(h.call({x, out}));
  take(h.call({x, out}));
  EXPECT_EQ(h.region().ownedBytes, 1024u);
  EXPECT_EQ(h.dev->launches, 1);
}

TEST(CudaGraphBookkeeping, StaticAllocationsAreMadeOncePerVM) {
  auto p = parse(R"(@I.ir_module
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
)");
  ASSERT_TRUE(p);
  codegen::BuildOptions options;
  options.configs.push_back("relax.backend.use_cuda_graph=true");
  auto built = codegen::buildExecutable(p->module(), options);
  ASSERT_TRUE(bool(built)) << llvm::toString(built.takeError());
  std::shared_ptr<const vm::Executable> exe(std::move(*built));
  std::vector<float> xs(16), ws(16);
  for (int i = 0; i < 16; ++i) {
    xs[i] = float(i % 5) - 2;
    ws[i] = float(i % 3) * 0.5f;
  }
  Value x = f32Tensor({4, 4}, xs), w = f32Tensor({4, 4}, ws);
  std::vector<float> want = tensorData<float>(take(run(exe, {x, w})));
  for (int vmCount = 0; vmCount < 2; ++vmCount) {
    Harness h(exe);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(tensorData<float>(take(h.call({x, w}))), want);
    EXPECT_EQ(vm::cudaGraphAllocCalls(*h.vm), 1u);
    ASSERT_FALSE(vm::cudaGraphReport(*h.vm).empty());
    EXPECT_EQ(h.region().captures, 1u);
  }
}

TEST(CudaGraphBookkeeping, TheCpuRunsEveryRegionEagerly) {
  auto exe = build(regionModule(kSquareBody));
  auto machine = take(vm::VirtualMachine::create(exe));
  Value x = xTensor(3, 1), out = f32Tensor({2, 3}, std::vector<float>(6, 0));
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(tensorData<float>(take(machine->invoke("main", {x, out}))), squares(x));
  auto r = vm::cudaGraphReport(*machine);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].state, CudaGraphRegionReport::State::Eager);
  EXPECT_EQ(r[0].eagerRuns, 2u);
  EXPECT_EQ(r[0].captures, 0u);
  EXPECT_EQ(r[0].reason, "the device cannot capture graphs");
}
