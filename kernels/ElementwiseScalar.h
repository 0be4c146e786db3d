//===- kernels/ElementwiseScalar.h - The op table's scalar functions -*- C++ -*-===//
//
// The scalar functions the elementwise op table (kernels/cpu/ElementwiseOps.def)
// is written in, one definition for every backend: the CPU kernels and the
// CPU fused evaluator (kernels/cpu/ElementwiseOps.h), the CUDA kernels
// (kernels/cuda/ElementwiseOps.cuh, compiled by nvcc) and the fused kernels
// NVRTC compiles at load time (the text is embedded, kernels/FusedCuda.h).
// So every backend computes each op with the same integer rules (wrapping
// arithmetic, x/0 = 0, numpy's shifts) and NaN rules, by construction.
// C is a compute type: an integer type, float, double, or bool.
//
// The storage conversions (float16, bfloat16) stay per backend: the CPU
// converts in software (kernels/cpu/TensorIter.h), the device with the
// conversion instructions (kernels/cuda/Scalar.cuh); both round to nearest
// even, which the CUDA tests check bit for bit against the CPU.
//
// Under NVRTC no standard header exists: kernels/cuda/RtcPrelude.cuh, which
// the embedded text puts first, supplies the std:: names used here.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_ELEMENTWISESCALAR_H
#define GRAFT_KERNELS_ELEMENTWISESCALAR_H

#ifndef __CUDACC_RTC__
#include <cmath>
#include <cstdint>
#include <type_traits>
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GRAFT_HD __host__ __device__
#else
#define GRAFT_HD
#endif

namespace graft::kernels::scalar {

template <class C> inline constexpr bool kFP = std::is_floating_point_v<C>;

/// Integer arithmetic that wraps instead of overflowing (signed overflow is
/// undefined in C++; every framework wraps).
template <class T> GRAFT_HD inline T wrapAdd(T a, T b) { return T(uint64_t(a) + uint64_t(b)); }
template <class T> GRAFT_HD inline T wrapSub(T a, T b) { return T(uint64_t(a) - uint64_t(b)); }
template <class T> GRAFT_HD inline T wrapMul(T a, T b) { return T(uint64_t(a) * uint64_t(b)); }

/// Adds/multiplies in the compute type, wrapping for integers (bool: or/and).
template <class C> GRAFT_HD inline C addC(C a, C b) {
  if constexpr (std::is_same_v<C, bool>)
    return a || b;
  else if constexpr (std::is_integral_v<C>)
    return wrapAdd(a, b);
  else
    return a + b;
}
template <class C> GRAFT_HD inline C mulC(C a, C b) {
  if constexpr (std::is_same_v<C, bool>)
    return a && b;
  else if constexpr (std::is_integral_v<C>)
    return wrapMul(a, b);
  else
    return a * b;
}

/// Integer division that is defined everywhere: x/0 is 0 (C++ leaves it
/// undefined; graft documents 0) and MIN/-1 wraps to MIN.
template <class C> GRAFT_HD inline C intDiv(C a, C b) {
  if (b == 0)
    return 0;
  if constexpr (std::is_signed_v<C>)
    if (b == C(-1))
      return C(uint64_t(0) - uint64_t(a));
  return C(a / b);
}

/// Floor division (Python's //) on integers, with intDiv's edge cases.
template <class C> GRAFT_HD inline C intFloorDiv(C a, C b) {
  C q = intDiv(a, b);
  if constexpr (std::is_signed_v<C>)
    if (b != 0 && b != C(-1) && (a % b != 0) && ((a < 0) != (b < 0)))
      --q;
  return q;
}

/// NaN without std::isnan (which NVRTC lacks): only NaN differs from itself.
template <class C> GRAFT_HD inline bool isNaN(C x) { return x != x; }

template <class C> GRAFT_HD inline C negC(C x) {
  if constexpr (kFP<C>)
    return -x;
  else
    return wrapSub(C(0), x); // -INT_MIN wraps, uint8 wraps.
}
template <class C> GRAFT_HD inline C absC(C x) {
  if constexpr (kFP<C>)
    return std::fabs(x);
  else
    return x < C(0) ? wrapSub(C(0), x) : x;
}
template <class C> GRAFT_HD inline C floorC(C x) {
  if constexpr (kFP<C>)
    return std::floor(x);
  else
    return x;
}
template <class C> GRAFT_HD inline C ceilC(C x) {
  if constexpr (kFP<C>)
    return std::ceil(x);
  else
    return x;
}
/// Half to even, as numpy and TVM.
template <class C> GRAFT_HD inline C roundC(C x) {
  if constexpr (kFP<C>)
    return std::nearbyint(x);
  else
    return x;
}
template <class C> GRAFT_HD inline C truncC(C x) {
  if constexpr (kFP<C>)
    return std::trunc(x);
  else
    return x;
}
/// numpy: sign(NaN) is NaN.
template <class C> GRAFT_HD inline C signC(C x) {
  if constexpr (kFP<C>)
    if (isNaN(x))
      return x;
  return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
}
template <class C> GRAFT_HD inline C geluC(C x) {
  return C(0.5) * x * (C(1) + std::erf(x * C(0.70710678118654752440)));
}
template <class C> GRAFT_HD inline C geluTanhC(C x) {
  C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
  return C(0.5) * x * (C(1) + std::tanh(inner));
}
/// SELU (TVM's legalization): scale * (x > 0 ? x : alpha * (e^x - 1)).
template <class C> GRAFT_HD inline C seluC(C x) {
  C alpha = C(1.6732632423543772848170429916717), scale = C(1.0507009873554804934193349852946);
  return scale * (x > C(0) ? x : alpha * std::expm1(x));
}
/// log(e^a + e^b) without overflow: max + log1p(e^-|a - b|); equal
/// operands (infinities included) give a + log 2; NaN propagates.
template <class C> GRAFT_HD inline C logAddExpC(C a, C b) {
  if (a == b)
    return a + C(0.69314718055994530942);
  C hi = a > b ? a : b, d = a > b ? b - a : a - b;
  return hi + std::log1p(std::exp(d));
}
/// a * b + c rounded once for floats (ewise_fma); wrapping for integers,
/// (a and b) or c for bool.
template <class C> GRAFT_HD inline C fmaC(C a, C b, C c) {
  if constexpr (std::is_same_v<C, bool>)
    return (a && b) || c;
  else if constexpr (std::is_integral_v<C>)
    return wrapAdd(wrapMul(a, b), c);
  else
    return std::fma(a, b, c);
}
/// Two's complement on integers, logical not on bool.
template <class C> GRAFT_HD inline C bitNotC(C x) {
  if constexpr (std::is_same_v<C, bool>)
    return !x;
  else
    return C(~x);
}
/// Integers and bool are finite and never NaN or infinite.
template <class C> GRAFT_HD inline bool isNanC(C x) {
  if constexpr (kFP<C>)
    return isNaN(x);
  else
    return false;
}
template <class C> GRAFT_HD inline bool isInfC(C x) {
  if constexpr (kFP<C>)
    return std::isinf(x);
  else
    return false;
}
template <class C> GRAFT_HD inline bool isFiniteC(C x) {
  if constexpr (kFP<C>)
    return std::isfinite(x);
  else
    return true;
}

template <class C> GRAFT_HD inline C subC(C a, C b) {
  if constexpr (kFP<C>)
    return a - b;
  else
    return wrapSub(a, b);
}
template <class C> GRAFT_HD inline C divC(C a, C b) {
  if constexpr (kFP<C>)
    return a / b;
  else
    return intDiv(a, b);
}
template <class C> GRAFT_HD inline C floorDivC(C a, C b) {
  if constexpr (kFP<C>)
    return std::floor(a / b);
  else
    return intFloorDiv(a, b);
}

/// Exponentiation by squaring, wrapping; a negative exponent truncates
/// 1/a^|b| toward zero.
template <class C> GRAFT_HD inline C intPow(C a, C b) {
  if (b < 0) {
    if (a == 1)
      return 1;
    if constexpr (std::is_signed_v<C>)
      if (a == C(-1))
        return (b & 1) ? C(-1) : C(1);
    return 0;
  }
  C r = 1;
  for (uint64_t e = uint64_t(b); e; e >>= 1) {
    if (e & 1)
      r = mulC(r, a);
    a = mulC(a, a);
  }
  return r;
}
template <class C> GRAFT_HD inline C powC(C a, C b) {
  if constexpr (kFP<C>)
    return std::pow(a, b);
  else
    return intPow(a, b);
}

/// maximum/minimum propagate NaN (a's when both are), as numpy and PyTorch
/// do. Written as selects without branches so that the CPU's loops over
/// them vectorize.
template <class C> GRAFT_HD inline C maxC(C a, C b) {
  C r = a < b ? b : a;
  if constexpr (kFP<C>) {
    r = isNaN(b) ? b : r;
    r = isNaN(a) ? a : r;
  }
  return r;
}
template <class C> GRAFT_HD inline C minC(C a, C b) {
  C r = b < a ? b : a;
  if constexpr (kFP<C>) {
    r = isNaN(b) ? b : r;
    r = isNaN(a) ? a : r;
  }
  return r;
}

/// Truncated remainder (sign of the dividend, C's % and fmod); x mod 0 is 0
/// for integers, matching intDiv's x/0 = 0, and NaN for floats.
template <class C> GRAFT_HD inline C truncMod(C a, C b) {
  if constexpr (kFP<C>) {
    return std::fmod(a, b);
  } else {
    if (b == 0)
      return 0;
    if constexpr (std::is_signed_v<C>)
      if (b == C(-1))
        return 0; // MIN % -1 overflows in C++.
    return C(a % b);
  }
}

/// Floor modulo (sign of the divisor, Python's %).
template <class C> GRAFT_HD inline C floorMod(C a, C b) {
  C r = truncMod(a, b);
  if constexpr (kFP<C>) {
    if (r != C(0) && ((r < C(0)) != (b < C(0))))
      r += b;
    else if (r == C(0))
      r = std::copysign(C(0), b); // numpy: the zero takes b's sign.
  } else if constexpr (std::is_signed_v<C>) {
    if (r != 0 && ((r < 0) != (b < 0)))
      r = wrapAdd(r, b);
  }
  return r;
}

/// Shifts with numpy's results where C++ is undefined: a count outside
/// [0, bits) shifts everything out (left: 0; right: the sign fill), and a
/// left shift of a negative value wraps.
template <class C> GRAFT_HD inline bool negative(C x) {
  if constexpr (std::is_signed_v<C>)
    return x < 0;
  else
    return false;
}
template <class C> GRAFT_HD inline C shiftLeft(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return C(0);
  using U = std::make_unsigned_t<C>;
  return C(U(U(a) << int(b)));
}
template <class C> GRAFT_HD inline C shiftRight(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return negative(a) ? C(-1) : C(0);
  return C(a >> int(b)); // Arithmetic for signed types (C++20).
}

} // namespace graft::kernels::scalar

#endif // GRAFT_KERNELS_ELEMENTWISESCALAR_H
