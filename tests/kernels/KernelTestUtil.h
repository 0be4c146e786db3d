//===- tests/kernels/KernelTestUtil.h - Owning tensors for kernel tests ---===//
//
// TestTensor owns a buffer and a DLTensor over it, built from logical
// row-major values (doubles, or exact int64s) in any dtype, optionally
// laid out in memory in a permuted order (non-contiguous strides) or at a
// byte offset. runKernel looks a kernel up and calls it with a workspace
// of the size it asks for.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTS_KERNELS_KERNELTESTUTIL_H
#define GRAFT_TESTS_KERNELS_KERNELTESTUTIL_H

#include "kernels/Kernel.h"
#include "kernels/cpu/TensorIter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace graft::kernels::test {

using cpu::ScalarType;

inline DLDataType dt(ScalarType t) { return cpu::dlTypeOf(t); }
inline const DLDataType F32 = dt(ScalarType::Float32);
inline const DLDataType F64 = dt(ScalarType::Float64);
inline const DLDataType F16 = dt(ScalarType::Float16);
inline const DLDataType BF16 = dt(ScalarType::BFloat16);
inline const DLDataType I8 = dt(ScalarType::Int8);
inline const DLDataType I16 = dt(ScalarType::Int16);
inline const DLDataType I32 = dt(ScalarType::Int32);
inline const DLDataType I64 = dt(ScalarType::Int64);
inline const DLDataType U8 = dt(ScalarType::UInt8);
inline const DLDataType BOOL = dt(ScalarType::Bool);

class TestTensor {
public:
  /// A tensor of `shape` holding `values` in row-major order; `perm` (if
  /// given) is the memory order of the dims, outermost first, so {1, 0}
  /// stores a matrix transposed. `offset` elements precede the data.
  TestTensor(DLDataType type, std::vector<int64_t> shape, const std::vector<double> &values = {},
             std::vector<int64_t> perm = {}, int64_t offset = 0)
      : shape(std::move(shape)) {
    init(type, perm, offset);
    for (size_t i = 0; i < values.size() && i < size_t(numel()); ++i)
      setD(int64_t(i), values[i]);
  }
  static TestTensor ints(DLDataType type, std::vector<int64_t> shape,
                         const std::vector<int64_t> &values, std::vector<int64_t> perm = {}) {
    TestTensor t(type, std::move(shape), {}, std::move(perm));
    for (size_t i = 0; i < values.size(); ++i)
      t.setI(int64_t(i), values[i]);
    return t;
  }
  TestTensor(const TestTensor &o) : TestTensor(o.t.dtype, o.shape) {
    for (int64_t i = 0; i < numel(); ++i)
      std::memcpy(ptr(i), o.ptr(i), t.dtype.bits / 8);
  }

  DLTensor *dl() { return &t; }
  int64_t numel() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<>());
  }
  std::vector<double> values() const {
    std::vector<double> r;
    for (int64_t i = 0; i < numel(); ++i)
      r.push_back(getD(i));
    return r;
  }
  std::vector<int64_t> intValues() const {
    std::vector<int64_t> r;
    for (int64_t i = 0; i < numel(); ++i)
      r.push_back(getI(i));
    return r;
  }
  /// Raw storage bits of element i (for half types).
  uint16_t bits16(int64_t i) const {
    uint16_t b;
    std::memcpy(&b, ptr(i), 2);
    return b;
  }

  std::vector<int64_t> shape;

private:
  void init(DLDataType type, std::vector<int64_t> perm, int64_t offset) {
    int64_t es = type.bits / 8;
    if (perm.empty())
      for (size_t d = 0; d < shape.size(); ++d)
        perm.push_back(int64_t(d));
    strides.assign(shape.size(), 0);
    int64_t acc = 1;
    for (int64_t k = int64_t(perm.size()) - 1; k >= 0; --k) {
      strides[perm[k]] = acc;
      acc *= std::max<int64_t>(shape[perm[k]], 1);
    }
    buf.assign(size_t((acc + offset) * es + 8), 0xAB);
    t.data = buf.data();
    t.device = {kDLCPU, 0};
    t.ndim = int32_t(shape.size());
    t.dtype = type;
    t.shape = shape.data();
    t.strides = strides.data();
    t.byte_offset = uint64_t(offset * es);
  }
  char *ptr(int64_t flat) const {
    char *p = static_cast<char *>(t.data) + t.byte_offset;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      p += (flat % shape[d]) * strides[d] * (t.dtype.bits / 8);
      flat /= shape[d];
    }
    return p;
  }
  ScalarType st() const { return *cpu::scalarTypeOf(t.dtype); }
  void setD(int64_t i, double v) {
    cpu::dispatch(st(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      cpu::Elem<T>::store(ptr(i), cpu::castTo<cpu::Compute<T>>(v));
    });
  }
  void setI(int64_t i, int64_t v) {
    cpu::dispatch(st(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      cpu::Elem<T>::store(ptr(i), cpu::castTo<cpu::Compute<T>>(v));
    });
  }
  double getD(int64_t i) const {
    return cpu::dispatch(st(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return cpu::castTo<double>(cpu::Elem<T>::load(ptr(i)));
    });
  }
  int64_t getI(int64_t i) const {
    return cpu::dispatch(st(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return cpu::castTo<int64_t>(cpu::Elem<T>::load(ptr(i)));
    });
  }

  std::vector<int64_t> strides;
  std::vector<uint8_t> buf;
  DLTensor t{};
};

/// Runs `symbol` with a workspace of the size the kernel asks for; the
/// error message, or "" on success.
inline std::string runKernel(llvm::StringRef symbol, std::vector<TestTensor *> inputs,
                             std::vector<TestTensor *> outputs, std::vector<AttrValue> attrs = {}) {
  const KernelInfo *k = lookupKernel(symbol);
  if (!k)
    return "no kernel " + symbol.str();
  std::vector<DLTensor *> in, out;
  for (TestTensor *t : inputs)
    in.push_back(t->dl());
  for (TestTensor *t : outputs)
    out.push_back(t->dl());
  KernelArgs args{in, out, attrs, {}};
  std::vector<uint8_t> ws;
  if (k->workspaceBytes) {
    ws.resize(k->workspaceBytes(args));
    args.workspace = {ws.data(), ws.size()};
  }
  llvm::Error err = k->fn(args);
  if (!err)
    return "";
  return llvm::toString(std::move(err));
}

/// Expects a successful run.
#define RUN_OK(...) ASSERT_EQ(::graft::kernels::test::runKernel(__VA_ARGS__), "")

using Ints = std::vector<int64_t>;
using Vals = std::vector<double>;

/// Element-wise comparison where NaN equals NaN.
inline void expectNear(const std::vector<double> &got, const std::vector<double> &want,
                       double tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i << ": " << got[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i]))) << "at " << i;
    }
  }
}

} // namespace graft::kernels::test

#endif // GRAFT_TESTS_KERNELS_KERNELTESTUTIL_H
