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
// Index-map kernels (programs with injective ops)
//===----------------------------------------------------------------------===//

/// An operand of an index case: "T" takes the case's dtype.
struct Operand {
  const char *dtype;
  std::vector<int64_t> shape;
  double lo = -4, hi = 4;
  std::vector<int64_t> perm = {}; ///< Memory order (empty: row-major).
};

/// A program with `T` for the dtype, its inputs and its outputs' shapes.
struct IndexCase {
  const char *name;
  std::string text;
  std::vector<Operand> inputs;
  std::vector<std::vector<int64_t>> outputs;
  const char *kernel = kernels::kFusedIndex32Kernel;
};

std::string withType(std::string text, DLDataType t) {
  for (size_t at; (at = text.find(" T ")) != std::string::npos;)
    text.replace(at, 3, " " + dt(t) + " ");
  return "fused 2\n" + text;
}

/// Every injective op (and clip) in an index program, alone and chained,
/// with symbolic dims (%R.K, ?), fixed ones, broadcast, transposed and
/// sliced inputs, two outputs.
const std::vector<IndexCase> &indexCases() {
  static const std::vector<IndexCase> cases = {
      {"permute_dims",
       "input %0 T 3\n%1 = permute_dims T %0 axes=2,0,1\n%2 = add T %1 %1\n"
       "output %2\n",
       {{"T", {3, 5, 7}}},
       {{7, 3, 5}}},
      {"permute_dims of a transposed input",
       "input %0 T 2\n%1 = permute_dims T %0 axes=1,0\n%2 = add T %1 %1\noutput %2\n",
       {{"T", {33, 65}, -4, 4, {1, 0}}},
       {{65, 33}}},
      {"reshape (symbolic)",
       "input %0 T 3\n%1 = reshape T %0 shape=%0.0,?\n"
       "%2 = multiply T %1 %1\noutput %2\n",
       {{"T", {4, 6, 5}}},
       {{4, 30}}},
      {"flatten after permute",
       "input %0 T 3\n%1 = permute_dims T %0 axes=1,0,2\n"
       "%2 = reshape T %1 shape=?\n%3 = subtract T %2 %2\noutput %3\n",
       {{"T", {4, 6, 5}}},
       {{120}}},
      {"reshape (fixed)",
       "input %0 T 2\n%1 = reshape T %0 shape=3,2,20\n%2 = add T %1 %1\n"
       "output %2\n",
       {{"T", {12, 10}}},
       {{3, 2, 20}}},
      {"expand_dims and squeeze",
       "input %0 T 2\n%1 = expand_dims T %0 axes=0,2\n"
       "%2 = squeeze T %1 axes=0\n%3 = add T %2 %2\noutput %3\n",
       {{"T", {5, 7}}},
       {{5, 1, 7}}},
      {"broadcast_to",
       "input %0 T 2\ninput %1 T 1\n%2 = broadcast_to T %0 shape=3,%0.0,6\n"
       "%3 = add T %2 %1\noutput %3\n",
       {{"T", {4, 1}}, {"T", {6}}},
       {{3, 4, 6}}},
      {"strided_slice",
       "input %0 T 3\n%1 = strided_slice T %0 axes=0,2 begin=-1,1 "
       "end=-100,100 strides=-2,3\n%2 = add T %1 %1\noutput %2\n",
       {{"T", {7, 4, 11}}},
       {{4, 4, 4}}},
      {"take int32 fast",
       "input %0 T 2\ninput %1 int32 2\n"
       "%2 = take T %0 %1 axis=1 mode=fast\n%3 = add T %2 %2\noutput %3\n",
       {{"T", {5, 9}}, {"int32", {2, 3}, -9, 8}},
       {{5, 2, 3}}},
      {"take int64 wrap",
       "input %0 T 2\ninput %1 int64 1\n"
       "%2 = take T %0 %1 axis=0 mode=wrap\noutput %2\n",
       {{"T", {5, 9}}, {"int64", {7}, -20, 20}},
       {{7, 9}}},
      {"take int32 clip of computed indices",
       "input %0 T 2\ninput %1 int32 1\n"
       "const %2 int32 3\n%3 = multiply int32 %1 %2\n"
       "%4 = take T %0 %3 axis=1 mode=clip\noutput %4\n",
       {{"T", {5, 9}}, {"int32", {11}, -6, 6}},
       {{5, 11}}},
      {"concat of three",
       "input %0 T 2\ninput %1 T 2\n"
       "%2 = concat T %0 %1 %0 axis=1\n%3 = add T %2 %2\noutput %3\n",
       {{"T", {3, 4}}, {"T", {3, 2}}},
       {{3, 10}}},
      {"concat with an empty operand",
       "input %0 T 2\ninput %1 T 2\n"
       "%2 = concat T %1 %0 %1 axis=0\noutput %2\n",
       {{"T", {3, 4}}, {"T", {0, 4}}},
       {{3, 4}}},
      {"clip after a slice",
       "input %0 T 1\n%1 = strided_slice T %0 axes=0 begin=1 end=9 "
       "strides=2\n%2 = clip T %1 min=-0x1p+0 max=0x1p+1\noutput %2\n",
       {{"T", {10}}},
       {{4}}},
      {"elementwise broadcasting around a permute",
       "input %0 T 2\ninput %1 T 1\ninput %2 T 3\n%3 = permute_dims T %0 axes=1,0\n"
       "%4 = add T %3 %1\n%5 = add T %4 %2\noutput %5\n",
       {{"T", {3, 4}}, {"T", {3}}, {"T", {2, 4, 3}}},
       {{2, 4, 3}}},
      {"take of a take in a concat",
       "input %0 T 2\ninput %1 int64 1\ninput %2 int32 1\n"
       "%3 = take int64 %1 %2 axis=0 mode=clip\n%4 = take T %0 %3 axis=0 mode=wrap\n"
       "%5 = concat T %4 %0 axis=0\noutput %5\n",
       {{"T", {4, 3}}, {"int64", {5}, -10, 10}, {"int32", {6}, -2, 8}},
       {{10, 3}}},
      {"reshape of a broadcast",
       "input %0 T 2\n%1 = broadcast_to T %0 shape=2,%0.0,3\n"
       "%2 = reshape T %1 shape=6,?\n%3 = add T %2 %2\noutput %3\n",
       {{"T", {4, 1}}},
       {{6, 4}}},
      {"a chain with two outputs",
       "input %0 T 3\ninput %1 int32 1\ninput %2 T 2\n"
       "%3 = permute_dims T %0 axes=2,0,1\n%4 = reshape T %3 shape=%0.2,?\n"
       "%5 = strided_slice T %4 axes=1 begin=-1 end=-100 strides=-2\n"
       "%6 = take T %5 %1 axis=1 mode=fast\n%7 = expand_dims T %6 axes=0\n"
       "%8 = squeeze T %7 axes=0\n%9 = concat T %8 %2 %8 axis=1\n"
       "%10 = broadcast_to T %9 shape=2,%0.2,%9.1\n"
       "%11 = clip T %10 min=-0x1p+0 max=0x1p+0\n%12 = add T %11 %10\n"
       "output %12\noutput %10\n",
       {{"T", {3, 4, 5}}, {"int32", {4}, -6, 5}, {"T", {5, 3}}},
       {{2, 5, 11}, {2, 5, 11}}},
  };
  return cases;
}

const std::vector<DLDataType> kIndexTypes = {F32, F16, BF16, I32};

DLDataType operandType(const char *name, DLDataType t) {
  if (std::string(name) == "T")
    return t;
  for (DLDataType u : kAllTypes)
    if (typeName(u) == name)
      return u;
  return t;
}

/// Compiles `p` for this GPU and runs it as the VM does (vm/FusedKernels.cpp:
/// the index check's slot when a take may fail, read back, and the second
/// launch for the value); "" or the error. `kernel` says which kernel ran.
std::string runGpuAll(const FusedProgram &p, std::vector<TestTensor *> ins,
                      std::vector<TestTensor *> outs, std::string *kernel = nullptr) {
  const GraftCudaApi &api = device()->module().api();
  int minor = 0, major = capability(minor);
  std::vector<const char *> entries = kernels::fusedKernelEntries(p);
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
  for (TestTensor *t : outs) {
    dev.push_back(std::make_unique<DeviceTensor>(*t));
    o.push_back(dev.back()->dl());
  }
  kernels::KernelArgs args{in, o, {}, {}};
  auto plan = kernels::planFusedLaunch(p, args, "graft.fused.test");
  if (!plan)
    return llvm::toString(plan.takeError());
  if (kernel)
    *kernel = plan->kernel;
  if (!plan->grid)
    return "";
  TestTensor slot(I64, {2}, {-1, 0});
  DeviceTensor dslot(slot);
  if (plan->checksIndices)
    plan->params[kernels::kFusedSlotWord] = int64_t(reinterpret_cast<uintptr_t>(dslot.dl()->data));
  GraftCudaError err;
  auto launch = [&] {
    return api.launch((*loaded)->functions[plan->entry], plan->grid, plan->block,
                      plan->params.data(), device()->stream(), &err);
  };
  if (launch())
    return err.message;
  if (llvm::Error e = device()->synchronize())
    return llvm::toString(std::move(e));
  if (plan->checksIndices) {
    dslot.fetch();
    if (slot.intValues()[0] != -1) {
      plan->params[kernels::kFusedReportWord] = 1;
      if (launch())
        return err.message;
      if (llvm::Error e = device()->synchronize())
        return llvm::toString(std::move(e));
      dslot.fetch();
      auto v = slot.intValues();
      return kernels::fusedIndexError(p, args, "graft.fused.test", uint64_t(v[0]), v[1]);
    }
  }
  for (size_t i = ins.size(); i < dev.size(); ++i)
    dev[i]->fetch();
  return "";
}

/// The CPU evaluator's result for several outputs; "" or the error.
std::string runCpuAll(const FusedProgram &p, std::vector<TestTensor *> ins,
                      std::vector<TestTensor *> outs) {
  std::vector<DLTensor *> in, o;
  for (TestTensor *t : ins)
    in.push_back(t->dl());
  for (TestTensor *t : outs)
    o.push_back(t->dl());
  kernels::KernelArgs args{in, o, {}, {}};
  std::vector<char> ws(kernels::fusedProgramWorkspaceBytes(p, args));
  args.workspace = {ws.data(), ws.size()};
  llvm::Error err = kernels::runFusedProgram(p, args, "graft.fused.test");
  return err ? llvm::toString(std::move(err)) : "";
}

/// Runs case c in dtype t both ways; "" or what differed.
std::string compareIndexCase(const IndexCase &c, DLDataType t, std::mt19937_64 &rng) {
  std::string text = withType(c.text, t);
  auto p = parse(text);
  if (!p)
    return "does not parse";
  std::vector<std::unique_ptr<TestTensor>> owned;
  std::vector<TestTensor *> ins, cpuOut, gpuOut;
  for (const Operand &o : c.inputs) {
    owned.push_back(std::make_unique<TestTensor>(
        randomTensor(operandType(o.dtype, t), o.shape, rng, o.lo, o.hi, o.perm)));
    ins.push_back(owned.back().get());
  }
  DLDataType outT = outputType(text);
  for (size_t j = 0; j < c.outputs.size(); ++j) {
    owned.push_back(std::make_unique<TestTensor>(outT, c.outputs[j]));
    cpuOut.push_back(owned.back().get());
    owned.push_back(std::make_unique<TestTensor>(outT, c.outputs[j]));
    gpuOut.push_back(owned.back().get());
  }
  std::string kernel;
  std::string cpuErr = runCpuAll(*p, ins, cpuOut), gpuErr = runGpuAll(*p, ins, gpuOut, &kernel);
  if (cpuErr != gpuErr)
    return "cpu '" + cpuErr + "' gpu '" + gpuErr + "'";
  if (!cpuErr.empty())
    return "";
  std::string failures;
  if (kernel != c.kernel)
    failures += " ran " + kernel + ", expected " + c.kernel;
  for (size_t j = 0; j < cpuOut.size(); ++j) {
    std::string diff = compare(*cpuOut[j], *gpuOut[j]);
    if (!diff.empty())
      failures += " output " + std::to_string(j) + ":" + diff;
  }
  return failures;
}

TEST(CudaFused, IndexMapsMatchTheCpuEvaluatorExactly) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(41);
  for (const IndexCase &c : indexCases())
    for (DLDataType t : kIndexTypes)
      EXPECT_EQ(compareIndexCase(c, t, rng), "") << c.name << " in " << typeName(t);
}

TEST(CudaFused, TakeOutOfRangeIsTheCpuEvaluatorsError) {
  GRAFT_REQUIRE_GPU();
  auto p = parse("fused 2\ninput %0 float32 2\ninput %1 int64 1\n"
                 "%2 = take float32 %0 %1 axis=1 mode=fast\n%3 = exp float32 %2\noutput %3\n");
  ASSERT_TRUE(p);
  TestTensor x(F32, {3, 4}, std::vector<double>(12, 1.0));
  // Several bad indices: the first in the output's order is reported, as on the CPU.
  TestTensor idx(I64, {5}, {0, -4, 9, 3, -5}), cpu(F32, {3, 5}), gpu(F32, {3, 5});
  std::string want = runCpuAll(*p, {&x, &idx}, {&cpu});
  EXPECT_EQ(want, "graft.fused.test: %2 (take): index 9 is out of range for a dim of 4");
  EXPECT_EQ(runGpuAll(*p, {&x, &idx}, {&gpu}), want);
  // An empty axis fails in every mode.
  auto wrap = parse("fused 2\ninput %0 float32 2\ninput %1 int32 1\n"
                    "%2 = take float32 %0 %1 axis=1 mode=wrap\noutput %2\n");
  ASSERT_TRUE(wrap);
  TestTensor e(F32, {3, 0}), i1(I32, {2}, {5, 1}), c1(F32, {3, 2}), g1(F32, {3, 2});
  want = runCpuAll(*wrap, {&e, &i1}, {&c1});
  EXPECT_EQ(want, "graft.fused.test: %2 (take): index 5 is out of range for a dim of 0");
  EXPECT_EQ(runGpuAll(*wrap, {&e, &i1}, {&g1}), want);
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

TEST(CudaFusedCompile, IndexMapsCompileForSm90WithoutAGpu) {
  GRAFT_REQUIRE_MODULE(api);
  // Every case in bfloat16 (conversions on every load), the chain in every dtype: NVRTC
  // takes about 0.3 s per program.
  for (const IndexCase &c : indexCases())
    for (DLDataType t : kIndexTypes) {
      if (t.code != kDLBfloat && &c != &indexCases().back())
        continue;
      auto p = parse(withType(c.text, t));
      ASSERT_TRUE(p);
      auto image = vm::compileCudaSource(*api, llvm::cantFail(kernels::fusedProgramCudaSource(*p)),
                                         "graft.fused.test", 9, 0);
      EXPECT_TRUE(bool(image)) << c.name << " in " << typeName(t) << ": "
                               << llvm::toString(image.takeError());
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
  // The H200's driver accepted this at load (lazy loading checks an image at first use), so
  // only what the load leaves behind is asserted, not that it fails.
  if (api.loadImage(0, junk, sizeof junk, &library, &err) == 0 && library)
    api.unloadImage(library);
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
