//===- kernels/cpu/ElementwiseFunctors.h - Scalar semantics of elementwise ops -*- C++ -*-===//
//
// The scalar function of every elementwise op, shared by the op's own
// kernel (Elementwise.cpp, ElementwiseExtra.cpp) and the fused-kernel
// evaluator (FusedProgram.cpp), so a fused chain gives the same bits as the
// kernels run one by one (docs/fusion.md). Each function takes and returns
// the compute type C of the element type (float for float16 and bfloat16).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CPU_ELEMENTWISEFUNCTORS_H
#define GRAFT_KERNELS_CPU_ELEMENTWISEFUNCTORS_H

#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {

/// The core ops of Elementwise.cpp.
namespace ew {

enum class Bin { Add, Sub, Mul, Div, FloorDiv, Pow, Max, Min, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
enum class BinKind { Arith, Compare, Logical };

constexpr BinKind binKind(Bin op) {
  if (op >= Bin::Eq && op <= Bin::Ge)
    return BinKind::Compare;
  return op >= Bin::And ? BinKind::Logical : BinKind::Arith;
}

/// Exponentiation by squaring, wrapping; a negative exponent truncates
/// 1/a^|b| toward zero.
template <class C> C intPow(C a, C b) {
  if (b < 0) {
    if (a == 1)
      return 1;
    if constexpr (std::is_signed_v<C>)
      if (a == -1)
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

/// maximum/minimum propagate NaN (a's when both are), as numpy and PyTorch
/// do. Written as selects without branches so that loops over them
/// vectorize.
template <class C> C maxC(C a, C b) {
  C r = a < b ? b : a;
  if constexpr (std::is_floating_point_v<C>) {
    r = std::isnan(b) ? b : r;
    r = std::isnan(a) ? a : r;
  }
  return r;
}
template <class C> C minC(C a, C b) {
  C r = b < a ? b : a;
  if constexpr (std::is_floating_point_v<C>) {
    r = std::isnan(b) ? b : r;
    r = std::isnan(a) ? a : r;
  }
  return r;
}

template <Bin Op, class C> C applyArith(C a, C b) {
  constexpr bool fp = std::is_floating_point_v<C>;
  if constexpr (Op == Bin::Add)
    return addC(a, b);
  else if constexpr (Op == Bin::Sub)
    return fp ? C(a - b) : wrapSub(a, b);
  else if constexpr (Op == Bin::Mul)
    return mulC(a, b);
  else if constexpr (Op == Bin::Div) {
    if constexpr (fp)
      return a / b;
    else
      return intDiv(a, b);
  } else if constexpr (Op == Bin::FloorDiv) {
    if constexpr (fp)
      return std::floor(a / b);
    else
      return intFloorDiv(a, b);
  } else if constexpr (Op == Bin::Pow) {
    if constexpr (fp)
      return std::pow(a, b);
    else
      return intPow(a, b);
  } else if constexpr (Op == Bin::Max)
    return maxC(a, b);
  else
    return minC(a, b);
}

template <Bin Op, class C> bool applyCompare(C a, C b) {
  if constexpr (Op == Bin::Eq)
    return a == b;
  else if constexpr (Op == Bin::Ne)
    return a != b;
  else if constexpr (Op == Bin::Lt)
    return a < b;
  else if constexpr (Op == Bin::Le)
    return a <= b;
  else if constexpr (Op == Bin::Gt)
    return a > b;
  else
    return a >= b;
}

enum class Un {
  Neg,
  Abs,
  Relu, // numeric
  Floor,
  Ceil,
  Round, // float math; identity on integers
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Sin,
  Cos,
  Erf,
  Gelu,
  GeluTanh,
  Silu, // float only
};

template <Un Op, class C> C applyUnary(C x) {
  if constexpr (Op == Un::Neg) {
    if constexpr (std::is_floating_point_v<C>)
      return -x;
    else
      return wrapSub(C(0), x); // -INT_MIN wraps, uint8 wraps.
  } else if constexpr (Op == Un::Abs) {
    if constexpr (std::is_floating_point_v<C>)
      return std::fabs(x);
    else
      return x < C(0) ? wrapSub(C(0), x) : x;
  } else if constexpr (Op == Un::Relu) {
    return x < C(0) ? C(0) : x; // NaN stays NaN.
  } else if constexpr (!std::is_floating_point_v<C>) {
    return x; // floor/ceil/round of an integer.
  } else if constexpr (Op == Un::Floor) {
    return std::floor(x);
  } else if constexpr (Op == Un::Ceil) {
    return std::ceil(x);
  } else if constexpr (Op == Un::Round) {
    return std::nearbyint(x); // Half to even, as numpy and TVM.
  } else if constexpr (Op == Un::Exp) {
    return std::exp(x);
  } else if constexpr (Op == Un::Log) {
    return std::log(x);
  } else if constexpr (Op == Un::Sqrt) {
    return std::sqrt(x);
  } else if constexpr (Op == Un::Rsqrt) {
    return C(1) / std::sqrt(x);
  } else if constexpr (Op == Un::Tanh) {
    return std::tanh(x);
  } else if constexpr (Op == Un::Sigmoid) {
    return C(1) / (C(1) + std::exp(-x));
  } else if constexpr (Op == Un::Sin) {
    return std::sin(x);
  } else if constexpr (Op == Un::Cos) {
    return std::cos(x);
  } else if constexpr (Op == Un::Erf) {
    return std::erf(x);
  } else if constexpr (Op == Un::Gelu) {
    return C(0.5) * x * (C(1) + std::erf(x * C(0.70710678118654752440)));
  } else if constexpr (Op == Un::GeluTanh) {
    C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
    return C(0.5) * x * (C(1) + std::tanh(inner));
  } else {
    return x / (C(1) + std::exp(-x)); // silu
  }
}

} // namespace ew

/// The ops of ElementwiseExtra.cpp.
namespace ewx {

enum class Un {
  Trunc,
  Sign,
  Square, // numeric; trunc is the identity on integers
  Acos,
  Acosh,
  Asin,
  Asinh,
  Atan,
  Atanh,
  Cosh,
  Sinh,
  Tan, // float only
};

template <Un Op, class C> C applyUnary(C x) {
  constexpr bool fp = std::is_floating_point_v<C>;
  if constexpr (Op == Un::Trunc) {
    if constexpr (fp)
      return std::trunc(x);
    else
      return x;
  } else if constexpr (Op == Un::Sign) {
    if constexpr (fp)
      if (std::isnan(x))
        return x; // numpy: sign(NaN) is NaN.
    return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
  } else if constexpr (Op == Un::Square) {
    return mulC(x, x); // Integers wrap.
  } else if constexpr (!fp) {
    return x; // Unreachable: float-only ops reject integers.
  } else if constexpr (Op == Un::Acos) {
    return std::acos(x);
  } else if constexpr (Op == Un::Acosh) {
    return std::acosh(x);
  } else if constexpr (Op == Un::Asin) {
    return std::asin(x);
  } else if constexpr (Op == Un::Asinh) {
    return std::asinh(x);
  } else if constexpr (Op == Un::Atan) {
    return std::atan(x);
  } else if constexpr (Op == Un::Atanh) {
    return std::atanh(x);
  } else if constexpr (Op == Un::Cosh) {
    return std::cosh(x);
  } else if constexpr (Op == Un::Sinh) {
    return std::sinh(x);
  } else {
    return std::tan(x);
  }
}

enum class Bin { And, Or, Xor, Shl, Shr, Mod, FloorMod };

/// Shifts with numpy's results where C++ is undefined: a count outside
/// [0, bits) shifts everything out (left: 0; right: the sign fill), and a
/// left shift of a negative value wraps.
template <class C> bool negative(C x) {
  if constexpr (std::is_signed_v<C>)
    return x < 0;
  else
    return false;
}
template <class C> C shiftLeft(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return C(0);
  using U = std::make_unsigned_t<C>;
  return C(U(U(a) << int(b)));
}
template <class C> C shiftRight(C a, C b) {
  constexpr int bits = int(sizeof(C) * 8);
  if (negative(b) || int64_t(b) >= bits)
    return negative(a) ? C(-1) : C(0);
  return C(a >> int(b)); // Arithmetic for signed types (C++20).
}

/// Truncated remainder (sign of the dividend, C's % and fmod); x mod 0 is 0
/// for integers, matching intDiv's x/0 = 0, and NaN for floats.
template <class C> C truncMod(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
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
template <class C> C floorMod(C a, C b) {
  C r = truncMod(a, b);
  if constexpr (std::is_floating_point_v<C>) {
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

template <Bin Op, class C> C applyBin(C a, C b) {
  if constexpr (Op == Bin::Mod)
    return truncMod(a, b);
  else if constexpr (Op == Bin::FloorMod)
    return floorMod(a, b);
  else if constexpr (std::is_floating_point_v<C>)
    return a; // Unreachable: bitwise ops reject floats.
  else if constexpr (Op == Bin::And)
    return C(a & b);
  else if constexpr (Op == Bin::Or)
    return C(a | b);
  else if constexpr (Op == Bin::Xor)
    return C(a ^ b);
  else if constexpr (Op == Bin::Shl)
    return shiftLeft(a, b);
  else
    return shiftRight(a, b);
}

/// The dtypes each op takes: bitwise and/or/xor take integers and bool,
/// shifts integers only, mod/floor_mod every numeric type.
template <Bin Op> bool takesType(ScalarType t) {
  if (t == ScalarType::Bool)
    return Op == Bin::And || Op == Bin::Or || Op == Bin::Xor;
  if (isFloatType(t))
    return Op == Bin::Mod || Op == Bin::FloorMod;
  return true;
}

} // namespace ewx

} // namespace graft::kernels::cpu

#endif // GRAFT_KERNELS_CPU_ELEMENTWISEFUNCTORS_H
