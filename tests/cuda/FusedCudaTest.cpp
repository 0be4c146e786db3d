//===- tests/cuda/FusedCudaTest.cpp - Fused kernels compiled by NVRTC ---------===//
//
// Every fused program here runs twice on the same random inputs: on the
// CPU evaluator (kernels/FusedKernel.h) and compiled by NVRTC for the GPU
// (kernels/FusedCuda.h, vm/CudaCompile.h). Chains of correctly rounded ops
// (+ - * /, comparisons, where, astype, integer and bool ops) must give the
// CPU's bits exactly: each op rounds to its dtype as the CPU evaluator
// does, and NVRTC does not contract a multiply and an add across ops
// (--fmad=false). A chain through tanh and exp is within 16 ulp of the
// result's dtype (4 for the half types) plus 8 epsilon of the compute type.
// Each runs on the flat kernel (compact, 4099 elements: vectors and a tail)
// and the strided one (broadcast operands, a transposed input).
//
// The compile tests need only the module and NVRTC, no GPU: CI runs them.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include "vm/CudaCompile.h"

#include "kernels/FusedCuda.h"
#include "kernels/FusedKernel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace graft::cuda::test {
namespace {

using kernels::FusedProgram;

std::string dt(DLDataType t) { return typeName(t); }

/// A chain for dtype t over inputs %0 (t), %1 (t, broadcast in the strided
/// cases) and %2 (bool), with one immediate: only correctly rounded ops.
std::string exactChain(DLDataType t) {
  std::string T = dt(t);
  std::string text = "fused 2\ninput %0 " + T + " 2\ninput %1 " + T + " 2\ninput %2 bool 2\n";
  if (t.code == kernels::kGraftDLBool)
    return text + "const %3 bool 1\n"
                  "%4 = logical_xor bool %0 %1\n"
                  "%5 = bitwise_and bool %4 %2\n"
                  "%6 = bitwise_or bool %5 %3\n"
                  "%7 = logical_and bool %6 %0\n"
                  "%8 = where bool %2 %7 %4\n"
                  "%9 = bitwise_not bool %8\n"
                  "%10 = astype int32 %9\n"
                  "%11 = add int32 %10 %2\n"
                  "output %11\n";
  if (isFloat(t))
    return text + "const %3 " + T +
           " 0x1.8p-1\n"
           "%4 = multiply " +
           T + " %0 %1\n%5 = add " + T + " %4 %2\n%6 = maximum " + T + " %5 %3\n" +
           "%7 = less bool %6 %0\n%8 = subtract " + T + " %6 %1\n%9 = where " + T +
           " %7 %8 %4\n%10 = divide " + T + " %9 %3\n%11 = floor_divide " + T +
           " %10 %1\n%12 = sqrt " + T + " %10\n%13 = isnan bool %12\n%14 = where " + T +
           " %13 %11 %12\n%15 = astype float32 %14\n%16 = astype " + T + " %15\noutput %16\n";
  return text + "const %3 " + T +
         " -3\n"
         "%4 = multiply " +
         T + " %0 %1\n%5 = add " + T + " %4 %2\n%6 = floor_divide " + T + " %5 %1\n" + "%7 = mod " +
         T + " %6 %3\n%8 = bitwise_xor " + T + " %7 %0\n%9 = left_shift " + T +
         " %8 %2\n%10 = greater_equal bool %9 %1\n%11 = where " + T + " %10 %9 %4\n" +
         "%12 = astype float64 %11\n%13 = astype " + T + " %12\noutput %13\n";
}

/// Transcendental ops on a float chain.
std::string mathChain(DLDataType t) {
  std::string T = dt(t);
  return "fused 2\ninput %0 " + T + " 2\ninput %1 " + T + " 2\ninput %2 bool 2\n%3 = tanh " + T +
         " %0\n%4 = exp " + T + " %1\n%5 = multiply " + T + " %3 %4\n%6 = add " + T +
         " %5 %2\noutput %6\n";
}

DLDataType outputType(const std::string &text) {
  std::string last = text.substr(text.rfind("output %") + 8);
  std::string reg = "%" + last.substr(0, last.find('\n')) + " = ";
  size_t at = text.find(reg);
  std::string rest = text.substr(at + reg.size());
  rest = rest.substr(rest.find(' ') + 1);
  std::string name = rest.substr(0, rest.find(' '));
  for (DLDataType t : kAllTypes)
    if (typeName(t) == name)
      return t;
  return F32;
}

std::shared_ptr<const FusedProgram> parse(const std::string &text) {
  auto p = kernels::parseFusedProgram(text);
  EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError()) << "\n" << text;
  return p ? *p : nullptr;
}

/// The CPU evaluator's result; "" or the error.
std::string runCpu(const FusedProgram &p, std::vector<TestTensor *> ins, TestTensor &out) {
  std::vector<DLTensor *> in, o{out.dl()};
  for (TestTensor *t : ins)
    in.push_back(t->dl());
  kernels::KernelArgs args{in, o, {}, {}};
  std::vector<char> ws(kernels::fusedProgramWorkspaceBytes(p, args));
  args.workspace = {ws.data(), ws.size()};
  llvm::Error err = kernels::runFusedProgram(p, args, "graft.fused.test");
  return err ? llvm::toString(std::move(err)) : "";
}

int capability(int &minor) {
  char name[256];
  int major = 0;
  GraftCudaError err;
  EXPECT_EQ(device()->module().api().describe(0, name, sizeof name, &major, &minor, &err), 0)
      << err.message;
  return major;
}

/// Compiles `p` for this GPU, runs it on copies of `ins`, copies the result
/// into `out`; "" or the error. `kernel` says which kernel ran.
std::string runGpu(const FusedProgram &p, std::vector<TestTensor *> ins, TestTensor &out,
                   std::string *kernel = nullptr) {
  const GraftCudaApi &api = device()->module().api();
  int minor = 0, major = capability(minor);
  const char *entries[] = {kernels::kFusedFlatKernel, kernels::kFusedStridedKernel};
  auto loaded =
      vm::loadCudaSource(api, 0, major, minor, llvm::cantFail(kernels::fusedProgramCudaSource(p)),
                         "graft.fused.test", entries, vm::KernelCache(""));
  if (!loaded)
    return llvm::toString(loaded.takeError());
  std::vector<std::unique_ptr<DeviceTensor>> dev;
  std::vector<DLTensor *> in, o;
  for (TestTensor *t : ins) {
    dev.push_back(std::make_unique<DeviceTensor>(*t));
    in.push_back(dev.back()->dl());
  }
  DeviceTensor dout(out);
  o.push_back(dout.dl());
  auto plan = kernels::planFusedLaunch(p, kernels::KernelArgs{in, o, {}, {}}, "graft.fused.test");
  if (!plan)
    return llvm::toString(plan.takeError());
  if (kernel)
    *kernel = plan->kernel;
  bool flat = llvm::StringRef(plan->kernel) == kernels::kFusedFlatKernel;
  GraftCudaError err;
  if (plan->grid && api.launch((*loaded)->functions[flat ? 0 : 1], plan->grid, plan->block,
                               plan->params.data(), device()->stream(), &err))
    return err.message;
  if (llvm::Error e = device()->synchronize())
    return llvm::toString(std::move(e));
  dout.fetch();
  return "";
}

struct Shapes {
  const char *name;
  std::vector<int64_t> a, b, c, out;
  std::vector<int64_t> aPerm; ///< Memory order of a's dims (empty: row-major).
  const char *kernel;
};

const std::vector<Shapes> &shapeCases() {
  static const std::vector<Shapes> cases = {
      {"compact", {1, 4099}, {1, 4099}, {1, 4099}, {1, 4099}, {}, kernels::kFusedFlatKernel},
      {"broadcast", {33, 65}, {1, 65}, {33, 1}, {33, 65}, {}, kernels::kFusedStridedKernel},
      {"transposed", {40, 24}, {40, 24}, {1, 1}, {40, 24}, {1, 0}, kernels::kFusedStridedKernel},
  };
  return cases;
}

/// Runs `text` both ways on every shape case; "" or what differed.
std::string compareBothWays(const std::string &text, DLDataType t, Bound bound, uint64_t seed) {
  auto p = parse(text);
  if (!p)
    return "does not parse";
  DLDataType outT = outputType(text);
  std::mt19937_64 rng(seed);
  std::string failures;
  for (const Shapes &s : shapeCases()) {
    // Small integers keep products and shifts in range of int8, and make
    // ties and zero divisors common.
    double lo = isFloat(t) ? -4 : -6, hi = isFloat(t) ? 4 : 6;
    TestTensor a = randomTensor(t, s.a, rng, lo, hi, s.aPerm);
    TestTensor b = randomTensor(t, s.b, rng, lo, hi);
    TestTensor c = randomTensor(BOOL, s.c, rng);
    TestTensor cpuOut(outT, s.out), gpuOut(outT, s.out);
    std::string kernel;
    std::string cpuErr = runCpu(*p, {&a, &b, &c}, cpuOut);
    std::string gpuErr = runGpu(*p, {&a, &b, &c}, gpuOut, &kernel);
    if (!cpuErr.empty() || !gpuErr.empty()) {
      failures += std::string(" ") + s.name + ": cpu '" + cpuErr + "' gpu '" + gpuErr + "'";
      continue;
    }
    if (kernel != s.kernel)
      failures += std::string(" ") + s.name + ": ran " + kernel + ", expected " + s.kernel;
    std::string diff = compare(cpuOut, gpuOut, bound);
    if (!diff.empty())
      failures += std::string(" ") + s.name + ": " + diff;
  }
  return failures;
}

TEST(CudaFused, ExactChainsMatchTheCpuEvaluatorInEveryDtype) {
  GRAFT_REQUIRE_GPU();
  uint64_t seed = 1;
  for (DLDataType t : kAllTypes) {
    std::string text = exactChain(t);
    EXPECT_EQ(compareBothWays(text, t, {}, seed++), "") << typeName(t) << "\n" << text;
  }
}

TEST(CudaFused, TranscendentalChainsAreWithinTheBound) {
  GRAFT_REQUIRE_GPU();
  uint64_t seed = 100;
  for (DLDataType t : kFloatTypes) {
    double computeEps = t.bits == 64 ? DBL_EPSILON : FLT_EPSILON;
    // Two libm results each a few ulp off, multiplied: the chain's bound is
    // looser than one op's.
    Bound bound{t.bits == 16 ? 4.0 : 16.0, 8 * computeEps};
    std::string text = mathChain(t);
    EXPECT_EQ(compareBothWays(text, t, bound, seed++), "") << typeName(t) << "\n" << text;
  }
}

TEST(CudaFused, ArgumentErrorsAreReported) {
  GRAFT_REQUIRE_GPU();
  auto p = parse(exactChain(F32));
  ASSERT_TRUE(p);
  std::mt19937_64 rng(7);
  TestTensor a = randomTensor(F32, {4, 8}, rng), b = randomTensor(F32, {4, 7}, rng),
             c = randomTensor(BOOL, {4, 8}, rng), out(F32, {4, 8});
  std::string err = runGpu(*p, {&a, &b, &c}, out);
  EXPECT_NE(err.find("graft.fused.test: cannot broadcast input 1 of shape [4, 7] to [4, 8]"),
            std::string::npos)
      << err;
}

//===----------------------------------------------------------------------===//
// NVRTC and the cache
//===----------------------------------------------------------------------===//

/// The module's API without a device; null (and the test skips) without it.
const GraftCudaApi *moduleApi(std::string &why) {
  auto api = vm::loadCudaModuleApi();
  if (!api) {
    why = llvm::toString(api.takeError());
    return nullptr;
  }
  return *api;
}

#define GRAFT_REQUIRE_MODULE(api)                                                                  \
  std::string why_;                                                                                \
  const GraftCudaApi *api = moduleApi(why_);                                                       \
  if (!api)                                                                                        \
  GTEST_SKIP() << why_

TEST(CudaFusedCompile, EveryDtypeCompilesForSm90WithoutAGpu) {
  GRAFT_REQUIRE_MODULE(api);
  for (DLDataType t : kAllTypes) {
    auto p = parse(exactChain(t));
    ASSERT_TRUE(p);
    auto image = vm::compileCudaSource(*api, llvm::cantFail(kernels::fusedProgramCudaSource(*p)),
                                       "graft.fused.test", 9, 0);
    ASSERT_TRUE(bool(image)) << typeName(t) << ": " << llvm::toString(image.takeError());
    EXPECT_GT(image->size(), 1000u);
  }
  for (DLDataType t : kFloatTypes) {
    auto p = parse(mathChain(t));
    ASSERT_TRUE(p);
    auto image = vm::compileCudaSource(*api, llvm::cantFail(kernels::fusedProgramCudaSource(*p)),
                                       "graft.fused.test", 9, 0);
    EXPECT_TRUE(bool(image)) << typeName(t) << ": " << llvm::toString(image.takeError());
  }
}

TEST(CudaFusedCompile, ACompileErrorCarriesNvrtcsLog) {
  GRAFT_REQUIRE_MODULE(api);
  auto image = vm::compileCudaSource(*api, "extern \"C\" __global__ void k() { undeclared(); }\n",
                                     "graft.fused.broken", 9, 0);
  ASSERT_FALSE(bool(image));
  std::string msg = llvm::toString(image.takeError());
  EXPECT_NE(msg.find("NVRTC could not compile graft.fused.broken for sm_90: "
                     "NVRTC_ERROR_COMPILATION"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("identifier \"undeclared\" is undefined"), std::string::npos) << msg;
}

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("graft-fused-cache", path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
};

size_t entries(llvm::StringRef dir) {
  size_t n = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    ++n;
  return n;
}

TEST(CudaFused, TheCacheKeepsLoadedImagesOnly) {
  GRAFT_REQUIRE_GPU();
  const GraftCudaApi &api = device()->module().api();
  int minor = 0, major = capability(minor);
  TempDir tmp;
  vm::KernelCache cache(std::string(tmp.path));
  auto p = parse(exactChain(F32));
  ASSERT_TRUE(p);
  std::string src = llvm::cantFail(kernels::fusedProgramCudaSource(*p));
  const char *entriesOf[] = {kernels::kFusedFlatKernel};
  auto first = vm::loadCudaSource(api, 0, major, minor, src, "graft.fused.test", entriesOf, cache);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_FALSE((*first)->cached);
  EXPECT_EQ(entries(tmp.path), 1u);
  auto second = vm::loadCudaSource(api, 0, major, minor, src, "graft.fused.test", entriesOf, cache);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE((*second)->cached);
  // A damaged entry is replaced by a fresh compile.
  std::string key = vm::KernelCache::key(src, vm::cudaArchName(major, minor), [&] {
    int a = 0, b = 0;
    GraftCudaError e;
    api.rtcVersion(&a, &b, &e);
    return "nvrtc " + std::to_string(a) + "." + std::to_string(b);
  }());
  ASSERT_TRUE(cache.load(key)) << "the entry is not under the key";
  ASSERT_FALSE(bool(cache.store(key, "not an image")));
  auto third = vm::loadCudaSource(api, 0, major, minor, src, "graft.fused.test", entriesOf, cache);
  ASSERT_TRUE(bool(third)) << llvm::toString(third.takeError());
  EXPECT_FALSE((*third)->cached);
  EXPECT_NE(*cache.load(key), "not an image");
  // A source that does not compile leaves nothing behind.
  auto bad =
      vm::loadCudaSource(api, 0, major, minor, "not C++", "graft.fused.bad", entriesOf, cache);
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
  EXPECT_EQ(entries(tmp.path), 1u);
  // Nor does one that compiles but lacks the entry asked for.
  const char *missing[] = {"no_such_kernel"};
  auto noEntry = vm::loadCudaSource(api, 0, major, minor, src + "\n// another\n",
                                    "graft.fused.test", missing, cache);
  ASSERT_FALSE(bool(noEntry));
  std::string msg = llvm::toString(noEntry.takeError());
  EXPECT_NE(msg.find("cudaLibraryGetKernel(no_such_kernel)"), std::string::npos) << msg;
  EXPECT_EQ(entries(tmp.path), 1u);
}

TEST(CudaFused, FailedLoadsLeaveNoErrorForTheNextLaunch) {
  // A load that fails (an image the driver refuses, an entry the image lacks) and an unload
  // must not leave their error in the runtime's last-error slot: the next nvcc kernel's launch
  // check (cudaGetLastError) reported it as its own ("launch of badIndexKernel:
  // cudaErrorSymbolNotFound") when CudaIndex ran after these tests.
  GRAFT_REQUIRE_GPU();
  const GraftCudaApi &api = device()->module().api();
  int minor = 0, major = capability(minor);
  auto p = parse(exactChain(F32));
  ASSERT_TRUE(p);
  std::string src = llvm::cantFail(kernels::fusedProgramCudaSource(*p));
  const char *missing[] = {"no_such_kernel"};
  auto noEntry = vm::loadCudaSource(api, 0, major, minor, src, "graft.fused.test", missing,
                                    vm::KernelCache(""));
  ASSERT_FALSE(bool(noEntry));
  llvm::consumeError(noEntry.takeError());
  void *library = nullptr;
  GraftCudaError err;
  const char junk[] = "not an image";
  EXPECT_NE(api.loadImage(0, junk, sizeof junk, &library, &err), 0);
  {
    const char *entries[] = {kernels::kFusedFlatKernel};
    auto loaded = vm::loadCudaSource(api, 0, major, minor, src, "graft.fused.test", entries,
                                     vm::KernelCache(""));
    ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  } // Unloaded here.
  // An ordinary kernel with a launch check (the index range check), then its result.
  TestTensor data(F32, {5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), idx(I64, {3}, {4, -5, 1});
  TestTensor cpu(F32, {3, 2}), gpu(F32, {3, 2});
  ASSERT_EQ(runKernel("graft.index_tensor", {&data, &idx}, {&cpu}), "");
  ASSERT_EQ(runCuda("graft.index_tensor", {&data, &idx}, {&gpu}), "");
  EXPECT_EQ(compare(cpu, gpu), "");
}

} // namespace
} // namespace graft::cuda::test
