//===- kernels/cuda/FusedOps.cuh - What generated fused kernels call -*- CUDA -*-===//
//
// The device side of the fused kernels that NVRTC compiles when an
// executable is loaded (kernels/FusedCuda.h writes their source). A fused
// program's registers are locals holding each value in its compute type,
// already rounded to its dtype: a float16 or bfloat16 result rounds once,
// where the unfused kernel would store it, so the chain gives the bits of
// the CPU evaluator. Every op is a row of the elementwise op table
// (ElementwiseOps.cuh), astype, where or clip, with the CPU evaluator's
// operand conversions.
//
// The kernel parameters are one FusedParams<K> (K operands, the outputs
// first); its layout is all 8-byte words, which the host writes as such.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_FUSEDOPS_CUH
#define GRAFT_KERNELS_CUDA_FUSEDOPS_CUH

#include "kernels/cuda/ElementwiseOps.cuh"

namespace graft::cuda::fused {

constexpr int kMaxDims = 8;
constexpr int kThreads = 256;

/// The arguments of a fused kernel: the element count, the (coalesced)
/// iteration shape and each operand's data and byte strides.
template <int K> struct FusedParams {
  int64_t n;
  int64_t ndim;
  int64_t shape[kMaxDims];
  char *data[K];
  int64_t stride[K][kMaxDims];
};

/// Byte offsets of linear (row-major) index i, per operand.
template <int K>
__device__ inline void offsets(const FusedParams<K> &p, int64_t i, int64_t (&off)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k)
    off[k] = 0;
  for (int d = int(p.ndim) - 1; d >= 0; --d) {
    int64_t q = i / p.shape[d], r = i - q * p.shape[d];
    i = q;
#pragma unroll
    for (int k = 0; k < K; ++k)
      off[k] += r * p.stride[k][d];
  }
}

/// The arguments of an index-map kernel (a program with injective ops):
/// the element count, the range check's slot, each operand's data (the
/// outputs first; an empty input's is null) and M words the generated code
/// reads: run-time dims, byte strides, slice starts (kernels/FusedCuda.h).
template <int K, int M> struct IndexParams {
  int64_t n;
  /// take's range check: {the smallest key of an out-of-range index, its
  /// value}; null: no check (a CUDA graph is being captured).
  unsigned long long *bad;
  /// 0: record keys; 1: write the value of the key in bad[0].
  int64_t report;
  char *data[K];
  int64_t w[M];
};

/// An out-of-range index of take `reg` at element i: ordered by tile (1024
/// elements, the CPU evaluator's), then register, then element.
__device__ inline void badIndex(unsigned long long *slot, int64_t report, int64_t i, unsigned reg,
                                int64_t v) {
  if (!slot)
    return;
  unsigned long long key = (static_cast<unsigned long long>(i >> 10) << 30) |
                           (static_cast<unsigned long long>(reg) << 10) |
                           static_cast<unsigned long long>(i & 1023);
  if (!report)
    atomicMin(slot, key);
  else if (key == slot[0])
    slot[1] = static_cast<unsigned long long>(v);
}

/// An element of dtype T at byte offset `off`; 0 from an empty input (null
/// data), which only a clamped coordinate of a failed index reads.
template <class T> __device__ inline Compute<T> loadAt(const char *base, int64_t off) {
  return loadElem(reinterpret_cast<const T *>(base + off));
}
template <class T> __device__ inline Compute<T> loadOrZero(const char *base, int64_t off) {
  return base ? loadAt<T>(base, off) : Compute<T>(0);
}

template <class T, int V> struct alignas(sizeof(T) * V) Vec { T v[V]; };

/// A value of dtype T rounded to T (the half types), as a store and a load
/// would leave it.
template <class T> __device__ inline Compute<T> roundTo(Compute<T> v) {
  if constexpr (kIsHalf<T>) {
    T s = toStorage<T>(v);
    return loadElem<T>(&s);
  } else {
    return v;
  }
}

/// An operand converted from dtype From to dtype To (astype, and a bool
/// operand of arithmetic): the CPU kernels' castTo, then rounded to To.
template <class To, class From> __device__ inline Compute<To> convert(Compute<From> v) {
  return roundTo<To>(castTo<Compute<To>>(v));
}

/// A row of the op table computing in storage type T, giving dtype Out.
template <class Op, class T, class Out> __device__ inline Compute<Out> row(Compute<T> a) {
  return roundTo<Out>(castTo<Compute<Out>>(Op::apply(a)));
}
template <class Op, class T, class Out>
__device__ inline Compute<Out> row(Compute<T> a, Compute<T> b) {
  return roundTo<Out>(castTo<Compute<Out>>(Op::apply(a, b)));
}

template <class T> __device__ inline Compute<T> where(bool c, Compute<T> x, Compute<T> y) {
  return c ? x : y;
}

/// clip with its kernel's bound conversion (castTo the compute type; NaN
/// passes through).
template <class T> __device__ inline Compute<T> clip(Compute<T> x, double lo, double hi) {
  Compute<T> l = castTo<Compute<T>>(lo), h = castTo<Compute<T>>(hi);
  return roundTo<T>(x < l ? l : (x > h ? h : x));
}

} // namespace graft::cuda::fused

#endif // GRAFT_KERNELS_CUDA_FUSEDOPS_CUH
