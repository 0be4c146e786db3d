//===- kernels/cuda/Scalar.cuh - Element types, loads, stores, conversions -*- CUDA -*-===//
//
// The scalar layer every CUDA kernel shares with the fused kernels that
// NVRTC compiles at load time: compute types (float for the half types),
// castTo with the CPU kernels' conversion rules, and element loads and
// stores that round to nearest even once per store. It compiles under nvcc
// and under NVRTC, where no CUDA or C++ header exists: there
// RtcPrelude.cuh stands in for the few it needs (docs/cuda.md, "Fused
// kernels"). Its text is embedded into graft at build time.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_SCALAR_CUH
#define GRAFT_KERNELS_CUDA_SCALAR_CUH

#ifdef __CUDACC_RTC__
#include "kernels/cuda/RtcPrelude.cuh"
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>
#endif

namespace graft::cuda {

/// The compute type of a storage type: float for the half types.
template <class T> struct ComputeOf { using type = T; };
template <> struct ComputeOf<__half> { using type = float; };
template <> struct ComputeOf<__nv_bfloat16> { using type = float; };
template <class T> using Compute = typename ComputeOf<T>::type;
template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T> inline constexpr bool kIsFloat = std::is_floating_point_v<Compute<T>>;

/// A conversion with the CPU kernels' results for every input: NaN to an
/// integer is 0, other floats truncate, saturate to int64 and wrap.
template <class To, class From> __host__ __device__ inline To castTo(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else if constexpr (std::is_floating_point_v<From>) {
    if (v != v)
      return To(0);
    if (v >= From(9223372036854775807.0))
      return static_cast<To>(INT64_MAX);
    if (v <= From(-9223372036854775808.0))
      return static_cast<To>(INT64_MIN);
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

/// Loads a storage element as its compute type and stores one back,
/// rounding to nearest even for the half types.
template <class T> __device__ inline Compute<T> loadElem(const T *p) {
  if constexpr (std::is_same_v<T, bool>)
    return *reinterpret_cast<const uint8_t *>(p) != 0;
  else if constexpr (std::is_same_v<T, __half>)
    return __half2float(*p);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __bfloat162float(*p);
  else
    return *p;
}
template <class T> __device__ inline T toStorage(Compute<T> v) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16_rn(v);
  else
    return v;
}
template <class T> __device__ inline void storeElem(T *p, Compute<T> v) {
  if constexpr (std::is_same_v<T, bool>)
    *reinterpret_cast<uint8_t *>(p) = v ? 1 : 0;
  else
    *p = toStorage<T>(v);
}

} // namespace graft::cuda

#endif // GRAFT_KERNELS_CUDA_SCALAR_CUH
