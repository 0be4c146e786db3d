//===- tests/cuda/CudaTestUtil.h - CUDA kernels against the CPU kernels ---===//
//
// Every test here runs a CUDA kernel of libgraft_cuda.so and the CPU kernel
// of the same symbol on the same random inputs and compares: integer and
// bool results bit for bit, floats within a stated bound. Without a CUDA
// device (no module, driver or GPU) each test skips with GTEST_SKIP, so CI
// without a GPU passes.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTS_CUDA_CUDATESTUTIL_H
#define GRAFT_TESTS_CUDA_CUDATESTUTIL_H

#include "../kernels/KernelTestUtil.h"

#include "vm/CudaDevice.h"

#include <cfloat>
#include <random>
#include <sstream>

namespace graft::cuda::test {

using namespace graft::kernels::test;
using graft::kernels::AttrValue;
using graft::kernels::cpu::ScalarType;

inline const std::vector<DLDataType> kAllTypes = {BOOL, I8, I16, I32, I64, U8, F16, BF16, F32, F64};
inline const std::vector<DLDataType> kFloatTypes = {F16, BF16, F32, F64};

inline std::string typeName(DLDataType t) { return kernels::cpu::dtypeName(t); }
inline bool isFloat(DLDataType t) { return t.code == kDLFloat || t.code == kDLBfloat; }

/// The CUDA device, or why there is none (then tests skip).
inline vm::CUDADevice *device(std::string *why = nullptr) {
  static std::string error;
  static vm::CUDADevice *dev = [] {
    auto d = vm::cudaDevice(0);
    if (!d) {
      error = llvm::toString(d.takeError());
      return static_cast<vm::CUDADevice *>(nullptr);
    }
    static std::shared_ptr<vm::Device> keep = *d;
    return llvm::cast<vm::CUDADevice>(keep.get());
  }();
  if (why)
    *why = error;
  return dev;
}

#define GRAFT_REQUIRE_GPU()                                                                        \
  do {                                                                                             \
    std::string why_;                                                                              \
    if (!::graft::cuda::test::device(&why_))                                                       \
      GTEST_SKIP() << why_;                                                                        \
  } while (0)

/// Bytes a TestTensor's layout spans from its data pointer.
inline size_t spanBytes(const DLTensor &t) {
  int64_t last = 0;
  for (int d = 0; d < t.ndim; ++d) {
    if (t.shape[d] == 0)
      return t.byte_offset + 8;
    last += (t.shape[d] - 1) * (t.strides ? t.strides[d] : 0);
  }
  if (!t.strides) {
    last = 1;
    for (int d = 0; d < t.ndim; ++d)
      last *= t.shape[d];
    last -= 1;
  }
  return size_t(t.byte_offset + (last + 1) * (t.dtype.bits / 8) + 8);
}

/// A device copy of a TestTensor with the same layout (strides, offset).
class DeviceTensor {
public:
  explicit DeviceTensor(TestTensor &host) : host_(host) {
    dl_ = *host.dl();
    bytes_ = spanBytes(dl_);
    auto p = device()->allocate(bytes_, 256);
    EXPECT_TRUE(bool(p));
    if (!p) {
      llvm::consumeError(p.takeError());
      return;
    }
    dl_.data = *p;
    dl_.device = {kDLCUDA, 0};
    check(device()->copy(dl_.data, dl_.device, host.dl()->data, {kDLCPU, 0}, bytes_));
  }
  ~DeviceTensor() {
    if (dl_.data)
      device()->free(dl_.data, bytes_);
  }
  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;

  DLTensor *dl() { return &dl_; }
  /// Copies the device data back over the host tensor.
  void fetch() {
    check(device()->copy(host_.dl()->data, {kDLCPU, 0}, dl_.data, dl_.device, bytes_));
  }

private:
  static void check(llvm::Error e) { EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e)); }
  TestTensor &host_;
  DLTensor dl_{};
  size_t bytes_ = 0;
};

/// Runs the module's `symbol`; the error message, or "" on success. The
/// outputs are copied back into `outputs`.
inline std::string runCuda(llvm::StringRef symbol, std::vector<TestTensor *> inputs,
                           std::vector<TestTensor *> outputs, std::vector<AttrValue> attrs = {}) {
  const GraftCudaKernel *k = device()->module().findKernel(symbol);
  if (!k)
    return "no CUDA kernel " + symbol.str();
  std::vector<std::unique_ptr<DeviceTensor>> in, out;
  std::vector<DLTensor *> inDl, outDl;
  for (TestTensor *t : inputs) {
    in.push_back(std::make_unique<DeviceTensor>(*t));
    inDl.push_back(in.back()->dl());
  }
  for (TestTensor *t : outputs) {
    out.push_back(std::make_unique<DeviceTensor>(*t));
    outDl.push_back(out.back()->dl());
  }
  kernels::KernelArgs args{inDl, outDl, attrs, {}};
  size_t wsBytes = vm::cudaKernelWorkspaceBytes(*k, args, device()->stream());
  void *ws = nullptr;
  if (wsBytes) {
    auto p = device()->allocate(wsBytes, 256);
    if (!p)
      return llvm::toString(p.takeError());
    ws = *p;
    args.workspace = {ws, wsBytes};
  }
  llvm::Error err = vm::runCudaKernel(*k, args, device()->stream());
  if (llvm::Error e = device()->synchronize())
    err = llvm::joinErrors(std::move(err), std::move(e));
  if (ws)
    device()->free(ws, wsBytes);
  if (err)
    return llvm::toString(std::move(err));
  for (auto &t : out)
    t->fetch();
  return "";
}

/// Random values for a dtype: bools fair, integers in [lo, hi], floats
/// uniform in [lo, hi) (rounded to the dtype when stored).
inline TestTensor randomTensor(DLDataType t, std::vector<int64_t> shape, std::mt19937_64 &rng,
                               double lo = -4, double hi = 4, std::vector<int64_t> perm = {}) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<double> v(n);
  if (t.code == kernels::kGraftDLBool) {
    for (double &x : v)
      x = double(rng() & 1);
  } else if (!isFloat(t)) {
    if (t.code == kDLUInt)
      lo = std::max(lo, 0.0);
    std::uniform_int_distribution<int64_t> d{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
    for (double &x : v)
      x = double(d(rng));
  } else {
    std::uniform_real_distribution<double> d(lo, hi);
    for (double &x : v)
      x = d(rng);
  }
  return TestTensor(t, std::move(shape), v, std::move(perm));
}

/// How close a float result must be: |got - want| <= ulps * ulp(want) +
/// atol, ulp taken in the result's dtype.
struct Bound {
  double ulps = 0;
  double atol = 0;
};

inline double ulpOf(double v, DLDataType t) {
  int mant = t.code == kDLBfloat ? 7 : t.bits == 16 ? 10 : t.bits == 32 ? 23 : 52;
  int minExp = t.code == kDLBfloat ? -126 : t.bits == 16 ? -14 : t.bits == 32 ? -126 : -1022;
  int e = v == 0 ? minExp : std::max(std::ilogb(v), minExp);
  return std::ldexp(1.0, e - mant);
}

/// Compares the CPU's and the GPU's result; returns "" or the first
/// mismatches.
inline std::string compare(TestTensor &cpu, TestTensor &gpu, Bound b = {}) {
  DLDataType t = cpu.dl()->dtype;
  std::ostringstream os;
  int bad = 0;
  if (!isFloat(t)) {
    auto want = cpu.intValues(), got = gpu.intValues();
    for (size_t i = 0; i < want.size() && bad < 5; ++i)
      if (want[i] != got[i]) {
        os << " [" << i << "] cpu " << want[i] << " gpu " << got[i];
        ++bad;
      }
  } else {
    auto want = cpu.values(), got = gpu.values();
    for (size_t i = 0; i < want.size() && bad < 5; ++i) {
      double w = want[i], g = got[i];
      bool ok = std::isnan(w)   ? std::isnan(g)
                : std::isinf(w) ? g == w
                                : std::fabs(g - w) <= b.ulps * ulpOf(w, t) + b.atol;
      if (!ok) {
        os.precision(17);
        os << " [" << i << "] cpu " << w << " gpu " << g;
        ++bad;
      }
    }
  }
  return bad ? typeName(t) + ":" + os.str() : "";
}

/// Runs `symbol` on the CPU and on CUDA with the same inputs and attrs; both
/// must succeed and every output must agree within `b`.
inline void expectCudaMatchesCpu(const char *symbol, std::vector<TestTensor *> in,
                                 std::vector<TestTensor *> cpu, std::vector<TestTensor *> gpu,
                                 const std::vector<AttrValue> &attrs = {}, Bound b = {}) {
  std::string cpuErr = runKernel(symbol, in, cpu, attrs);
  std::string gpuErr = runCuda(symbol, in, gpu, attrs);
  ASSERT_EQ(cpuErr, "") << symbol;
  ASSERT_EQ(gpuErr, "") << symbol;
  for (size_t i = 0; i < cpu.size(); ++i)
    EXPECT_EQ(compare(*cpu[i], *gpu[i], b), "") << symbol << " output " << i;
}

} // namespace graft::cuda::test

#endif // GRAFT_TESTS_CUDA_CUDATESTUTIL_H
