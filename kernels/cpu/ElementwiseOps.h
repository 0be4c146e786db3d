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

// The scalar functions the table is written in, one definition for the CPU
// and the CUDA kernels.
using namespace scalar;

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
