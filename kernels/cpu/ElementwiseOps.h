//===- kernels/cpu/ElementwiseOps.h - Elementwise ops as data ---*- C++ -*-===//
//
// The dtype rules of the elementwise op table (ElementwiseOps.def), the
// scalar functions its rows are written in, and one type per row:
//
//   struct elementwise::Exp {
//     static constexpr const char *symbol = "graft.exp";
//     static constexpr int arity = 1;
//     static constexpr DTypeRule rule = DTypeRule::Float;
//     template <class C> static auto apply(C x);
//   };
//
// plus kRows, the table as data. UnaryOps.cpp and BinaryOps.cpp turn each
// type into a kernel, FusedProgram.cpp into an op of the fused program
// format (its loop per dtype and its dtype checks); nothing about an op is
// written anywhere but its row.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CPU_ELEMENTWISEOPS_H
#define GRAFT_KERNELS_CPU_ELEMENTWISEOPS_H

#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu::elementwise {

/// Which dtypes an elementwise kernel takes and what it returns. The
/// same-dtype rules return the dtype the op computes in: a unary op's input
/// dtype, a binary op's output dtype (each input of that dtype or bool, as
/// Relax lets bool mix with any dtype).
enum class DTypeRule : uint8_t {
  Numeric,    ///< Integer or float, same dtype out.
  Arithmetic, ///< Numeric; refusing bool suggests a cast (add ... minimum).
  Float,      ///< Floating point only, same dtype out.
  IntOrBool,  ///< Integer, or bool computing the logical op; same dtype out.
  Int,        ///< Integer only, same dtype out.
  Compare,    ///< Binary: inputs of one dtype (or one of them bool), bool out.
  Logical,    ///< Any dtype, read as a truth value (nonzero is true); bool out.
  Predicate,  ///< Unary: any dtype, read as its value; bool out.
};

enum class DTypeClass : uint8_t { Bool, Int, Float };

constexpr DTypeClass classOf(ScalarType t) {
  if (t == ScalarType::Bool)
    return DTypeClass::Bool;
  return isFloatType(t) ? DTypeClass::Float : DTypeClass::Int;
}
template <class T>
inline constexpr DTypeClass kClassOf = kIsBool<T>    ? DTypeClass::Bool
                                       : kIsFloat<T> ? DTypeClass::Float
                                                     : DTypeClass::Int;

/// Whether a kernel of rule `r` runs on a dtype of class `c` (for a
/// same-dtype rule, the dtype it computes in).
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
  case DTypeRule::Compare:
  case DTypeRule::Logical:
  case DTypeRule::Predicate:
    return true;
  }
  return false;
}

/// Whether the rule's result is bool rather than the computation dtype.
constexpr bool hasBoolResult(DTypeRule r) {
  return r == DTypeRule::Compare || r == DTypeRule::Logical || r == DTypeRule::Predicate;
}

//===----------------------------------------------------------------------===//
// Scalar functions the table is written in. C is a compute type: an
// integer type, float, double, or bool.
//===----------------------------------------------------------------------===//

template <class C> inline constexpr bool kFP = std::is_floating_point_v<C>;

template <class C> C negC(C x) {
  if constexpr (kFP<C>)
    return -x;
  else
    return wrapSub(C(0), x); // -INT_MIN wraps, uint8 wraps.
}
template <class C> C absC(C x) {
  if constexpr (kFP<C>)
    return std::fabs(x);
  else
    return x < C(0) ? wrapSub(C(0), x) : x;
}
template <class C> C floorC(C x) {
  if constexpr (kFP<C>)
    return std::floor(x);
  else
    return x;
}
template <class C> C ceilC(C x) {
  if constexpr (kFP<C>)
    return std::ceil(x);
  else
    return x;
}
/// Half to even, as numpy and TVM.
template <class C> C roundC(C x) {
  if constexpr (kFP<C>)
    return std::nearbyint(x);
  else
    return x;
}
template <class C> C truncC(C x) {
  if constexpr (kFP<C>)
    return std::trunc(x);
  else
    return x;
}
/// numpy: sign(NaN) is NaN.
template <class C> C signC(C x) {
  if constexpr (kFP<C>)
    if (std::isnan(x))
      return x;
  return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
}
template <class C> C geluC(C x) {
  return C(0.5) * x * (C(1) + std::erf(x * C(0.70710678118654752440)));
}
template <class C> C geluTanhC(C x) {
  C inner = C(0.79788456080286535588) * (x + C(0.044715) * x * x * x);
  return C(0.5) * x * (C(1) + std::tanh(inner));
}
/// Two's complement on integers, logical not on bool.
template <class C> C bitNotC(C x) {
  if constexpr (std::is_same_v<C, bool>)
    return !x;
  else
    return C(~x);
}
/// Integers and bool are finite and never NaN or infinite.
template <class C> bool isNanC(C x) {
  if constexpr (kFP<C>)
    return std::isnan(x);
  else
    return false;
}
template <class C> bool isInfC(C x) {
  if constexpr (kFP<C>)
    return std::isinf(x);
  else
    return false;
}
template <class C> bool isFiniteC(C x) {
  if constexpr (kFP<C>)
    return std::isfinite(x);
  else
    return true;
}

template <class C> C subC(C a, C b) {
  if constexpr (kFP<C>)
    return a - b;
  else
    return wrapSub(a, b);
}
template <class C> C divC(C a, C b) {
  if constexpr (kFP<C>)
    return a / b;
  else
    return intDiv(a, b);
}
template <class C> C floorDivC(C a, C b) {
  if constexpr (kFP<C>)
    return std::floor(a / b);
  else
    return intFloorDiv(a, b);
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
template <class C> C powC(C a, C b) {
  if constexpr (kFP<C>)
    return std::pow(a, b);
  else
    return intPow(a, b);
}

/// maximum/minimum propagate NaN (a's when both are), as numpy and PyTorch
/// do. Written as selects without branches so that loops over them
/// vectorize.
template <class C> C maxC(C a, C b) {
  C r = a < b ? b : a;
  if constexpr (kFP<C>) {
    r = std::isnan(b) ? b : r;
    r = std::isnan(a) ? a : r;
  }
  return r;
}
template <class C> C minC(C a, C b) {
  C r = b < a ? b : a;
  if constexpr (kFP<C>) {
    r = std::isnan(b) ? b : r;
    r = std::isnan(a) ? a : r;
  }
  return r;
}

/// Truncated remainder (sign of the dividend, C's % and fmod); x mod 0 is 0
/// for integers, matching intDiv's x/0 = 0, and NaN for floats.
template <class C> C truncMod(C a, C b) {
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
template <class C> C floorMod(C a, C b) {
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

//===----------------------------------------------------------------------===//
// One type per table row
//===----------------------------------------------------------------------===//

#define GRAFT_UNARY_OP(Name, Symbol, Rule, ...)                                                    \
  struct Name {                                                                                    \
    static constexpr const char *symbol = Symbol;                                                  \
    static constexpr int arity = 1;                                                                \
    static constexpr DTypeRule rule = DTypeRule::Rule;                                             \
    template <class C> static auto apply(C x) { return __VA_ARGS__; }                              \
  };
#define GRAFT_BINARY_OP(Name, Symbol, Rule, ...)                                                   \
  struct Name {                                                                                    \
    static constexpr const char *symbol = Symbol;                                                  \
    static constexpr int arity = 2;                                                                \
    static constexpr DTypeRule rule = DTypeRule::Rule;                                             \
    template <class C> static auto apply(C a, C b) { return __VA_ARGS__; }                         \
  };
#include "kernels/cpu/ElementwiseOps.def"

//===----------------------------------------------------------------------===//
// The table as data, for code that walks every row
//===----------------------------------------------------------------------===//

/// The registry symbol's prefix; the rest is the op's script name, the
/// name a fused kernel program uses ("graft.nn.relu" -> "nn.relu").
inline constexpr char kSymbolPrefix[] = "graft.";
inline constexpr size_t kSymbolPrefixLen = sizeof(kSymbolPrefix) - 1;

/// The op's script name: the symbol after its "graft." prefix.
constexpr const char *scriptName(const char *symbol) { return symbol + kSymbolPrefixLen; }

struct RowInfo {
  const char *symbol;
  int arity;
  DTypeRule rule;
};

/// Every row, in table order.
inline constexpr RowInfo kRows[] = {
#define GRAFT_UNARY_OP(Name, ...) {Name::symbol, Name::arity, Name::rule},
#define GRAFT_BINARY_OP(Name, ...) {Name::symbol, Name::arity, Name::rule},
#include "kernels/cpu/ElementwiseOps.def"
};
inline constexpr size_t kNumRows = std::size(kRows);

namespace detail {
constexpr bool sameString(const char *a, const char *b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}
constexpr bool hasPrefix(const char *s) {
  for (size_t i = 0; i < kSymbolPrefixLen; ++i)
    if (s[i] != kSymbolPrefix[i])
      return false;
  return s[kSymbolPrefixLen] != 0;
}
/// Whether every symbol carries the prefix and no two rows share one.
constexpr bool wellFormed() {
  for (size_t i = 0; i < kNumRows; ++i) {
    if (!hasPrefix(kRows[i].symbol))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (sameString(kRows[i].symbol, kRows[j].symbol))
        return false;
  }
  return true;
}
} // namespace detail

static_assert(detail::wellFormed(), "every row's symbol is unique and starts with \"graft.\"");

} // namespace graft::kernels::cpu::elementwise

#endif // GRAFT_KERNELS_CPU_ELEMENTWISEOPS_H
