//===- kernels/cuda/RtcPrelude.cuh - What NVRTC lacks of the C++ and CUDA headers -*- CUDA -*-===//
//
// NVRTC compiles the fused kernels at load time with no include path: the
// toolkit's headers need not exist where graft runs, only the driver and
// libnvrtc. This file stands in for the parts of <cstdint>, <type_traits>,
// <cmath>, <cuda_fp16.h> and <cuda_bf16.h> that Scalar.cuh and
// ElementwiseOps.cuh use, with the same names, so those headers compile
// unchanged under nvcc and NVRTC. NVRTC declares the CUDA math functions
// itself (exp(float) is expf), so std:: only has to name them. Only
// included when __CUDACC_RTC__ is defined.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_RTCPRELUDE_CUH
#define GRAFT_KERNELS_CUDA_RTCPRELUDE_CUH

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;

#define INT64_MAX 9223372036854775807LL
#define INT64_MIN (-INT64_MAX - 1)

namespace std {

template <class T, T V> struct integral_constant { static constexpr T value = V; };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;

template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;

template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<const T> { using type = T; };
template <class T> struct remove_cv<volatile T> { using type = T; };
template <class T> struct remove_cv<const volatile T> { using type = T; };

template <class T> struct is_fp_ : false_type {};
template <> struct is_fp_<float> : true_type {};
template <> struct is_fp_<double> : true_type {};
template <class T>
inline constexpr bool is_floating_point_v = is_fp_<typename remove_cv<T>::type>::value;

template <class T> struct is_int_ : false_type {};
template <> struct is_int_<bool> : true_type {};
template <> struct is_int_<char> : true_type {};
template <> struct is_int_<signed char> : true_type {};
template <> struct is_int_<short> : true_type {};
template <> struct is_int_<int> : true_type {};
template <> struct is_int_<long> : true_type {};
template <> struct is_int_<long long> : true_type {};
template <> struct is_int_<unsigned char> : true_type {};
template <> struct is_int_<unsigned short> : true_type {};
template <> struct is_int_<unsigned int> : true_type {};
template <> struct is_int_<unsigned long> : true_type {};
template <> struct is_int_<unsigned long long> : true_type {};
template <class T>
inline constexpr bool is_integral_v = is_int_<typename remove_cv<T>::type>::value;

template <class T>
inline constexpr bool is_signed_v = (is_integral_v<T> || is_floating_point_v<T>)&&T(-1) < T(0);

template <class T> struct make_unsigned;
template <> struct make_unsigned<signed char> { using type = unsigned char; };
template <> struct make_unsigned<unsigned char> { using type = unsigned char; };
template <> struct make_unsigned<short> { using type = unsigned short; };
template <> struct make_unsigned<unsigned short> { using type = unsigned short; };
template <> struct make_unsigned<int> { using type = unsigned int; };
template <> struct make_unsigned<unsigned int> { using type = unsigned int; };
template <> struct make_unsigned<long> { using type = unsigned long; };
template <> struct make_unsigned<unsigned long> { using type = unsigned long; };
template <> struct make_unsigned<long long> { using type = unsigned long long; };
template <> struct make_unsigned<unsigned long long> { using type = unsigned long long; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;

template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;

using ::acos;
using ::acosh;
using ::asin;
using ::asinh;
using ::atan;
using ::atanh;
using ::ceil;
using ::copysign;
using ::cos;
using ::cosh;
using ::erf;
using ::exp;
using ::expm1;
using ::fabs;
using ::floor;
using ::fma;
using ::fmod;
using ::isfinite;
using ::isinf;
using ::log;
using ::log1p;
using ::nearbyint;
using ::pow;
using ::sin;
using ::sinh;
using ::sqrt;
using ::tan;
using ::tanh;
using ::trunc;

} // namespace std

// The half types as cuda_fp16.h and cuda_bf16.h name them, with the
// conversions Scalar.cuh uses; the instructions are the ones those headers
// emit on sm_80 and later.
struct __half {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
};

__device__ inline float __half2float(__half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x));
  return f;
}
__device__ inline __half __float2half_rn(float f) {
  __half h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.x) : "f"(f));
  return h;
}
__device__ inline float __bfloat162float(__nv_bfloat16 h) {
  return __uint_as_float(static_cast<unsigned int>(h.x) << 16);
}
__device__ inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  __nv_bfloat16 h;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.x) : "f"(f));
  return h;
}

#endif // GRAFT_KERNELS_CUDA_RTCPRELUDE_CUH
