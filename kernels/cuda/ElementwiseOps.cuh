//===- kernels/cuda/ElementwiseOps.cuh - The elementwise op table on the device -*- CUDA -*-===//
//
// Device versions of the scalar functions the elementwise op table is
// written in (the CPU's are in kernels/cpu), with the CPU kernels'
// integer rules: wrapping arithmetic, x/0 = 0, numpy's shifts, NaN
// propagation in maximum/minimum. Including the table here makes one type
// per row, as on the CPU. It compiles under NVRTC too (Scalar.cuh): the
// fused kernels compiled at load time embed its text and call these rows.
// One type per row:
//
//   struct ops::Exp {
//     static constexpr const char *symbol = "graft.exp";
//     static constexpr DTypeRule rule = DTypeRule::Float;
//     template <class C> __device__ static auto apply(C x);
//   };
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_ELEMENTWISEOPS_CUH
#define GRAFT_KERNELS_CUDA_ELEMENTWISEOPS_CUH

#include "kernels/cuda/Scalar.cuh"

#ifndef __CUDACC_RTC__
#include "kernels/cuda/Common.cuh"

#include <cmath>
#endif

namespace graft::cuda::ops {

/// Which dtypes a kernel takes and what it returns (the CPU table's rules).
enum class DTypeRule : uint8_t {
  Numeric,    ///< Integer or float, same dtype out.
  Arithmetic, ///< Numeric.
  Float,      ///< Floating point only, same dtype out.
  IntOrBool,  ///< Integer, or bool computing the logical op; same dtype out.
  Int,        ///< Integer only, same dtype out.
  Compare,    ///< Binary: inputs of one dtype (or one of them bool), bool out.
  Logical,    ///< Any dtype read as a truth value; bool out.
  Predicate,  ///< Unary: any dtype read as its value; bool out.
};

enum class DTypeClass : uint8_t { Bool, Int, Float };

#ifndef __CUDACC_RTC__
inline DTypeClass classOf(ScalarType t) {
  if (t == ScalarType::Bool)
    return DTypeClass::Bool;
  return isFloatType(t) ? DTypeClass::Float : DTypeClass::Int;
}
#endif

constexpr bool accepts(DTypeRule r, DTypeClass c) {
  switch (r) {
  case DTypeRule::Numeric:
  case DTypeRule::Arithmetic:
    return c != DTypeClass::Bool;
  case DTypeRule::Float:
    return c == DTypeClass::Float;
  case DTypeRule::IntOrBool:
    return c != DTypeClass::Float;
  case DTypeRule::Int:
    return c == DTypeClass::Int;
  default:
    return true;
  }
}

constexpr bool hasBoolResult(DTypeRule r) {
  return r == DTypeRule::Compare || r == DTypeRule::Logical || r == DTypeRule::Predicate;
}

template <class C> inline constexpr bool kFP = std::is_floating_point_v<C>;

template <class T> __device__ inline T wrapAdd(T a, T b) { return T(uint64_t(a) + uint64_t(b)); }
template <class T> __device__ inline T wrapSub(T a, T b) { return T(uint64_t(a) - uint64_t(b)); }
template <class T> __device__ inline T wrapMul(T a, T b) { return T(uint64_t(a) * uint64_t(b)); }

template <class C> __device__ inline C addC(C a, C b) {
  if constexpr (std::is_same_v<C, bool>)
    return a || b;
  else if constexpr (std::is_integral_v<C>)
    return wrapAdd(a, b);
  else
    return a + b;
}
template <class C> __device__ inline C mulC(C a, C b) {
  if constexpr (std::is_same_v<C, bool>)
    return a && b;
  else if constexpr (std::is_integral_v<C>)
    return wrapMul(a, b);
  else
    return a * b;
}
template <class C> __device__ inline C subC(C a, C b) {
  if constexpr (kFP<C>)
    return a - b;
  else
    return wrapSub(a, b);
}
template <class C> __device__ inline C intDiv(C a, C b) {
  if (b == 0)
    return 0;
  if constexpr (std::is_signed_v<C>)
    if (b == C(-1))
      return C(uint64_t(0) - uint64_t(a));
  return C(a / b);
}
template <class C> __device__ inline C intFloorDiv(C a, C b) {
  C q = intDiv(a, b);
  if constexpr (std::is_signed_v<C>)
    if (b != 0 && b != C(-1) && (a % b != 0) && ((a < 0) != (b < 0)))
      --q;
  return q;
}
template <class C> __device__ inline C divC(C a, C b) {
  if constexpr (kFP<C>)
    return a / b;
  else
    return intDiv(a, b);
}
template <class C> __device__ inline C floorDivC(C a, C b) {
  if constexpr (kFP<C>)
    return std::floor(a / b);
  else
    return intFloorDiv(a, b);
}
template <class C> __device__ inline C negC(C x) {
  if constexpr (kFP<C>)
    return -x;
  else
    return wrapSub(C(0), x);
}
template <class C> __device__ inline C absC(C x) {
  if constexpr (kFP<C>)
    return std::fabs(x);
  else
    return x < C(0) ? wrapSub(C(0), x) : x;
}
template <class C> __device__ inline C floorC(C x) {
  if constexpr (kFP<C>)
    return std::floor(x);
  else
    return x;
}
template <class C> __device__ inline C ceilC(C x) {
  if constexpr (kFP<C>)
    return std::ceil(x);
  else
    return x;
}
template <class C> __device__ inline C roundC(C x) {
  if constexpr (kFP<C>)
    return std::nearbyint(x);
  else
    return x;
}
template <class C> __device__ inline C truncC(C x) {
  if constexpr (kFP<C>)
    return std::trunc(x);
  else
    return x;
}
template <class C> __device__ inline C signC(C x) {
  if constexpr (kFP<C>)
    if (x != x)
      return x;
  return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
}
template <class C> __device__ inline C geluC(C x) {
  return C(0.5) * x * (C(1) + std::erf(x * C(0.70710678118654752440)));
}
template <class C> __device__ inline C geluTanhC(C x) {
  C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
  return C(0.5) * x * (C(1) + std::tanh(inner));
}
template <class C> __device__ inline C bitNotC(C x) {
  if constexpr (std::is_same_v<C, bool>)
    return !x;
  else
    return C(~x);
}
template <class C> __device__ inline bool isNanC(C x) {
  if constexpr (kFP<C>)
    return x != x;
  else
    return false;
}
template <class C> __device__ inline bool isInfC(C x) {
  if constexpr (kFP<C>)
    return std::isinf(x);
  else
    return false;
}
template <class C> __device__ inline bool isFiniteC(C x) {
  if constexpr (kFP<C>)
    return std::isfinite(x);
  else
    return true;
}
template <class C> __device__ inline C intPow(C a, C b) {
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
template <class C> __device__ inline C powC(C a, C b) {
  if constexpr (kFP<C>)
    return std::pow(a, b);
  else
    return intPow(a, b);
}
template <class C> __device__ inline C maxC(C a, C b) {
  if constexpr (kFP<C>)
    if (a != a || b != b)
      return a != a ? a : b;
  return a < b ? b : a;
}
template <class C> __device__ inline C minC(C a, C b) {
  if constexpr (kFP<C>)
    if (a != a || b != b)
      return a != a ? a : b;
  return b < a ? b : a;
}
template <class C> __device__ inline C truncMod(C a, C b) {
  if constexpr (kFP<C>) {
    return std::fmod(a, b);
  } else {
    if (b == 0)
      return 0;
    if constexpr (std::is_signed_v<C>)
      if (b == C(-1))
        return 0;
    return C(a % b);
  }
}
template <class C> __device__ inline C floorMod(C a, C b) {
  C r = truncMod(a, b);
  if constexpr (kFP<C>) {
    if (r != C(0) && ((r < C(0)) != (b < C(0))))
      r += b;
    else if (r == C(0))
      r = std::copysign(C(0), b);
  } else if constexpr (std::is_signed_v<C>) {
    if (r != 0 && ((r < 0) != (b < 0)))
      r = wrapAdd(r, b);
  }
  return r;
}
template <class C> __device__ inline bool negative(C x) {
  if constexpr (std::is_signed_v<C>)
    return x < 0;
  else
    return false;
}
template <class C> __device__ inline C shiftLeft(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return C(0);
  using U = std::make_unsigned_t<C>;
  return C(U(U(a) << int(b)));
}
template <class C> __device__ inline C shiftRight(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return negative(a) ? C(-1) : C(0);
  return C(a >> int(b));
}

#define GRAFT_UNARY_OP(Name, Symbol, Rule, ...)                                                    \
  struct Name {                                                                                    \
    static constexpr const char *symbol = Symbol;                                                  \
    static constexpr DTypeRule rule = DTypeRule::Rule;                                             \
    template <class C> __device__ static auto apply(C x) { return __VA_ARGS__; }                   \
  };
#define GRAFT_BINARY_OP(Name, Symbol, Rule, ...)                                                   \
  struct Name {                                                                                    \
    static constexpr const char *symbol = Symbol;                                                  \
    static constexpr DTypeRule rule = DTypeRule::Rule;                                             \
    template <class C> __device__ static auto apply(C a, C b) { return __VA_ARGS__; }              \
  };
#include "kernels/cpu/ElementwiseOps.def"

} // namespace graft::cuda::ops

#endif // GRAFT_KERNELS_CUDA_ELEMENTWISEOPS_CUH
