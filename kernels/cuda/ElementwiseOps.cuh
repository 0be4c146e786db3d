//===- kernels/cuda/ElementwiseOps.cuh - The elementwise op table on the device -*- CUDA -*-===//
//
// The elementwise op table on the device: its scalar functions are the
// CPU's (kernels/ElementwiseScalar.h, __host__ __device__), with the
// integer rules (wrapping arithmetic, x/0 = 0, numpy's shifts) and NaN
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

// After Scalar.cuh: under NVRTC its prelude supplies the std:: names.
#include "kernels/ElementwiseScalar.h"

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

// The scalar functions the table is written in, one definition for the CPU
// and the CUDA kernels.
using namespace graft::kernels::scalar;

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
